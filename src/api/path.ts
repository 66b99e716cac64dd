import { UsageError } from '../runtime/errors';

/**
 * An opaque ID as one percent-encoded path segment: the one place paths take an ID. `.` and `..` cannot be
 * carried (URL resolution removes them, even as `%2e`, and the request would reach another path) nor can an
 * empty ID: usage errors, before any request.
 */
export function seg(id: string): string {
  if (id === '') throw new UsageError('an ID cannot be empty');
  if (id === '.' || id === '..') throw new UsageError(`"${id}" cannot be an ID: it would not stay one path segment`);
  return encodeURIComponent(id);
}
