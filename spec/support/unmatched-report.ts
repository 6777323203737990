import { describeBytes } from './describe.js';
import { mismatches, sameRoute, type Expectation } from './expectation-match.js';
import type { RecordedRequest } from './recorded-request.js';

/**
 * The text/plain body of the 404 sent for a request no expectation matched: for each
 * expectation of the same method and path, why it did not match (expected vs actual);
 * when there is none, the routes that are registered; then the request as received.
 */
export function unmatchedReport(req: RecordedRequest, expectations: readonly Expectation[]): string {
  const listener = req.secure ? 'HTTPS' : 'HTTP';
  const lines = [`No expectation matched ${req.method} ${req.target} (${listener}).`, ''];
  const candidates = expectations.map((e, i) => ({ e, n: i + 1 })).filter(({ e }) => sameRoute(e, req));
  if (candidates.length > 0) {
    for (const { e, n } of candidates) {
      lines.push(`Expectation #${n} (${e.method} ${e.path}) did not match:`);
      for (const why of mismatches(e, req)) lines.push(`  - ${why}`);
    }
  } else if (expectations.length > 0) {
    lines.push(`No expectation is registered for ${req.method} ${req.path}. Registered:`);
    expectations.forEach((e, i) => lines.push(`  #${i + 1} ${e.method} ${e.path}`));
  } else {
    lines.push('No expectations are registered.');
  }
  lines.push('', 'Request received:', `  ${req.method} ${req.target}`);
  for (const [name, value] of req.rawHeaders) lines.push(`  ${name}: ${value}`);
  lines.push(`  body: ${describeBytes(req.body)}${req.chunked ? ', chunked' : ''}`, '');
  return lines.join('\n');
}
