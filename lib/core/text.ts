/** Text for messages: control characters made visible, never sent raw. */

// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL = /[\u0000-\u001f\u007f]/;

/** Shows control characters visibly so a message never carries a raw CR/LF; long text is cut. */
export function escape(text: string): string {
  const shown = JSON.stringify(text).slice(1, -1);
  return shown.length > 120 ? `${shown.slice(0, 117)}...` : shown;
}
