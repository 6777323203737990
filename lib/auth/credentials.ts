import type { UserCredentials } from '../config/auth-config.js';

/** `Basic base64(utf8(user:password))` (RFC 7617). */
export function basicAuthorization(credentials: Pick<UserCredentials, 'user' | 'password'>): string {
  return `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8').toString('base64')}`;
}
