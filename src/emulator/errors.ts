import { ERROR_STATUS, type ErrorType } from '../wire/errors';

/** An error the emulator answers with the spec's error object. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The spec's error object for `e`, as every error answer carries it. */
export function errorBody(e: HttpError, requestId: string): { error: Record<string, string> } {
  const error: Record<string, string> = { type: e.type, message: e.message, request_id: requestId };
  if (e.param !== undefined) error.param = e.param;
  return { error };
}

export function fail(type: ErrorType, message: string, param?: string, status: number = ERROR_STATUS[type]): never {
  throw new HttpError(status, type, message, param);
}

export const invalidParam = (param: string, message: string): never => fail('invalid_parameter_error', message, param);
export const notFound = (what: string, id: string): never => fail('resource_not_found_error', `${what} ${id} not found`);
/** Unstated rejections of a bad state (docs/service.md: 400 failed_precondition_error). */
export const precondition = (message: string, status = 400): never => fail('failed_precondition_error', message, undefined, status);
export const conflict = (message: string): never => fail('conflict_error', message);
