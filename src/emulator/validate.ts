import { invalidParam } from './errors';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'map' | 'any';

export interface Field {
  type: FieldType | FieldType[];
  required?: boolean;
  nullable?: boolean;
  enum?: readonly string[];
  /** Declared members of an object (others are rejected); omitted: any members. */
  fields?: Schema;
  items?: Field;
  min?: number;
  max?: number;
  pattern?: RegExp;
  maxLength?: number;
}

export type Schema = Record<string, Field>;

export interface ValidateOptions {
  /** PATCH: nothing required; explicit null only on nullable fields. */
  patch?: boolean;
  prefix?: string;
}

/** Checks a JSON body against declared fields: unknown members, types, enums, ranges (-11, -13, -14, -15). */
export function validate(body: unknown, schema: Schema, opts: ValidateOptions = {}): Record<string, any> {
  const prefix = opts.prefix ?? 'body';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) invalidParam(prefix, 'the body must be a JSON object');
  checkObject(body as Record<string, unknown>, schema, prefix, Boolean(opts.patch));
  return body as Record<string, any>;
}

function checkObject(obj: Record<string, unknown>, schema: Schema, path: string, patch: boolean): void {
  for (const key of Object.keys(obj)) {
    if (!(key in schema)) invalidParam(`${path}.${key}`, `unknown member ${key}`);
  }
  for (const [key, field] of Object.entries(schema)) {
    const p = `${path}.${key}`;
    const v = obj[key];
    if (v === undefined) {
      if (field.required && !patch) invalidParam(p, `${key} is required`);
      continue;
    }
    checkValue(v, field, p, patch);
  }
}

export function checkValue(v: unknown, field: Field, p: string, patch = false): void {
  // A PATCH's metadata is a patch (src/emulator/metadata.ts): null clears the map, a null value deletes its key.
  const mapPatch = patch && field.type === 'map';
  if (v === null) {
    if (!field.nullable && !mapPatch) invalidParam(p, `${p.split('.').pop()} cannot be null`);
    return;
  }
  const types = Array.isArray(field.type) ? field.type : [field.type];
  const t = types.find((t) => isType(v, t));
  if (!t) invalidParam(p, `expected ${types.join(' or ')}`);
  if (field.enum && !field.enum.includes(v as string)) invalidParam(p, `must be one of ${field.enum.join(', ')}`);
  if (typeof v === 'number') {
    if (field.min !== undefined && v < field.min) invalidParam(p, `must be at least ${field.min}`);
    if (field.max !== undefined && v > field.max) invalidParam(p, `must be at most ${field.max}`);
  }
  if (typeof v === 'string') {
    if (field.pattern && !field.pattern.test(v)) invalidParam(p, 'does not match the required pattern');
    if (field.maxLength !== undefined && v.length > field.maxLength) invalidParam(p, `is longer than ${field.maxLength}`);
  }
  if (t === 'object' && field.fields) checkObject(v as Record<string, unknown>, field.fields, p, false);
  if (t === 'map')
    for (const [k, x] of Object.entries(v as object)) if (typeof x !== 'string' && !(mapPatch && x === null)) invalidParam(`${p}.${k}`, 'expected string');
  if (t === 'array' && field.items) (v as unknown[]).forEach((x, i) => checkValue(x, field.items!, `${p}[${i}]`, patch));
}

function isType(v: unknown, t: FieldType): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
    case 'map':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    case 'any':
      return true;
  }
}

/** Parses a boolean query parameter (`true`/`false`), 400 otherwise. */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return invalidParam(`query.${name}`, `${name} must be true or false`);
}

export function queryEnum<T extends string>(q: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (!values.includes(v as T)) invalidParam(`query.${name}`, `${name} must be one of ${values.join(', ')}`);
  return v as T;
}

export function queryTime(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(v)) invalidParam(`query.${name}`, `${name} must be an RFC 3339 date-time`);
  return t;
}
