const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const DAYS = 'Mon|Tue|Wed|Thu|Fri|Sat|Sun';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** `Sun, 06 Nov 1994 08:49:37 GMT`: day, month, year, time. */
const IMF_FIXDATE = new RegExp(`^(?:${DAYS}), (\\d{2}) (${MONTHS}) (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete): day, month, two-digit year, time. */
const RFC_850 = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${MONTHS})-(\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` (C's asctime, obsolete): month, day, time, year. */
const ASCTIME = new RegExp(`^(?:${DAYS}) (${MONTHS}) (\\d{2}| \\d) ${TIME} (\\d{4})$`);

/**
 * An HTTP-date (RFC 9110 §5.6.7) as ms since the epoch: the IMF-fixdate, RFC 850 and asctime
 * forms exactly as the grammar writes them (case, spaces, `GMT`), always in GMT; `undefined`
 * for anything else. `Date.parse` alone takes far more (`-1`, `1.5`, `5 May` are dates to V8).
 * A two-digit RFC 850 year more than 50 years after `now` is taken from the century before.
 *
 * @example
 * parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'); // 784111777000
 * parseHttpDate('5 May'); // undefined
 */
export function parseHttpDate(text: string, now = Date.now()): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) return instant(match[3], match[2], match[1], match.slice(4, 7));
  match = ASCTIME.exec(text);
  if (match) return instant(match[6], match[1], match[2], match.slice(3, 6));
  match = RFC_850.exec(text);
  if (!match) return undefined;
  const thisYear = new Date(now).getUTCFullYear();
  let year = thisYear - (thisYear % 100) + Number(match[3]);
  if (year > thisYear + 50) year -= 100;
  return instant(String(year), match[2], match[1], match.slice(4, 7));
}

function instant(year: string, month: string, day: string, [hour, minute, second]: string[]): number | undefined {
  const [d, h, m, s] = [Number(day), Number(hour), Number(minute), Number(second)];
  if (d < 1 || d > 31 || h > 23 || m > 59 || s > 60) return undefined; // 60: a leap second
  return Date.UTC(Number(year), MONTHS.indexOf(month) / 4, d, h, m, s);
}
