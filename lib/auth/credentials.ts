import type { Credentials } from '../config/auth-config.js';

/** `Basic base64(utf8(user:password))` (RFC 7617). */
export function basicAuthorization(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8').toString('base64')}`;
}
