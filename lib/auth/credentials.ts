/** Credentials for one client or request, and how to use them. */
export interface Credentials {
  /** `basic` or `digest`: answer only that scheme (URL credentials are Basic). */
  readonly scheme: 'basic' | 'digest';
  readonly user: string;
  readonly password: string;
  /** Basic: send with the first request, before any challenge. */
  readonly preemptive: boolean;
}

/** `Basic base64(utf8(user:password))` (RFC 7617). */
export function basicAuthorization(credentials: Credentials): string {
  return `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`, 'utf8').toString('base64')}`;
}
