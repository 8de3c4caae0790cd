/**
 * Times written as `Date.prototype.toISOString` writes them, by arithmetic: the first `Date` of a run
 * reads the time zone (~0.4 ms of a command's start-up, ARCHITECTURE.md "Start-up"), and diazo writes
 * only UTC times.
 */

/** The largest time a `Date` holds, in milliseconds either side of the epoch. */
export const MAX_TIME_MS = 8.64e15;

const DAY_MS = 86_400_000;

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * `ms` since the epoch as `new Date(ms).toISOString()` gives it (fractions of a millisecond cut
 * toward zero); a RangeError, as there, past MAX_TIME_MS or for NaN.
 */
export function isoTime(ms: number): string {
  if (!(Math.abs(ms) <= MAX_TIME_MS)) throw new RangeError("Invalid time value");
  const t = Math.trunc(ms) + 0; // + 0: -0 is 0
  const days = Math.floor(t / DAY_MS);
  const inDay = t - days * DAY_MS;
  // The civil date of a day number (proleptic Gregorian calendar, eras of 400 years from 0000-03-01).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const ofEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (ofEra - Math.floor(ofEra / 1460) + Math.floor(ofEra / 36_524) -
      Math.floor(ofEra / 146_096)) / 365,
  );
  const ofYear = ofEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const m5 = Math.floor((5 * ofYear + 2) / 153);
  const day = ofYear - Math.floor((153 * m5 + 2) / 5) + 1;
  const month = m5 < 10 ? m5 + 3 : m5 - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const y = year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? "-" : "+"}${pad(Math.abs(year), 6)}`;
  const h = Math.floor(inDay / 3_600_000);
  const min = Math.floor(inDay / 60_000) % 60;
  const s = Math.floor(inDay / 1000) % 60;
  return `${y}-${pad(month, 2)}-${pad(day, 2)}T${pad(h, 2)}:${pad(min, 2)}:${pad(s, 2)}.${
    pad(inDay % 1000, 3)
  }Z`;
}
