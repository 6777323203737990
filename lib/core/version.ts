/** The library version, sent in the default `User-Agent`. Kept in step with package.json (a test checks). */
export const VERSION = '0.1.0';
