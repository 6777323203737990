import type { RecordedRequest } from '../recorded-request.js';

/** What `basicRoute` and `digestRoute` return: live counters of one protected route. */
export interface AuthRouteHandle {
  /** 401 responses sent (every challenge: first ones, rejections and `stale=true`). */
  readonly challenges: number;
  /** 200 responses sent (the credentials were right). */
  readonly authorized: number;
  /** 401 responses to requests that carried an `Authorization` header (wrong, malformed, replayed or stale). */
  readonly rejected: number;
  /** For each `Authorization: Digest` received, in order: its `nonce` and `nc` as sent (Digest only). */
  readonly ncSeen: ReadonlyArray<{ readonly nonce: string; readonly nc: string }>;
  /** The parameters (lower-cased names, unquoted values) of the last `Authorization: Digest` received. */
  readonly lastAuthorization: Readonly<Record<string, string>> | undefined;
  /** Every request the route answered, in order. */
  readonly requests: readonly RecordedRequest[];
  /**
   * Why each rejected request was rejected, in order (one entry per {@link rejected}); the
   * reasons name the parameter at fault, never a password or hash.
   */
  readonly rejections: readonly string[];
  /** Every nonce the route has sent, in order: in challenges and as `nextnonce` (Digest only). */
  readonly issuedNonces: readonly string[];
}

/** The mutable record behind an {@link AuthRouteHandle}; the routes hand it out typed read-only. */
export class RouteStats implements AuthRouteHandle {
  challenges = 0;
  authorized = 0;
  rejected = 0;
  readonly ncSeen: Array<{ nonce: string; nc: string }> = [];
  lastAuthorization: Record<string, string> | undefined = undefined;
  readonly requests: RecordedRequest[] = [];
  readonly rejections: string[] = [];
  readonly issuedNonces: string[] = [];

  /** Counts a 401; `reason` is given when the request carried credentials. */
  challenged(reason?: string): void {
    this.challenges++;
    if (reason === undefined) return;
    this.rejected++;
    this.rejections.push(reason);
  }
}
