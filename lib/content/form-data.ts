import { multipart, type Multipart } from './multipart.js';

/** Whether `value` is a web `FormData` (by its tag, so one from another realm or polyfill counts too). */
export function isFormData(value: unknown): value is FormData {
  return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object FormData]';
}

/**
 * A `FormData`'s entries as a multipart body, in order: a string is a field, a `File` a file part
 * with its name and type (`application/octet-stream` when it has none), streamed from the Blob.
 */
export function multipartOf(form: FormData): Multipart {
  return multipart((mp) => {
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') mp.field(name, value);
      else mp.part(name, value.name, value.type, value);
    }
  });
}
