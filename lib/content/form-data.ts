/** Whether `value` is a web `FormData` (by its tag, so one from another realm or polyfill counts too). */
export function isFormData(value: unknown): value is FormData {
  return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object FormData]';
}
