import { toBase64 } from '../core/bytes.js';
import type { UserCredentials } from '../config/auth-config.js';

/** `Basic base64(utf8(user:password))` (RFC 7617). */
export function basicAuthorization(credentials: Pick<UserCredentials, 'user' | 'password'>): string {
  return `Basic ${toBase64(`${credentials.user}:${credentials.password}`)}`;
}
