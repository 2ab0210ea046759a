const RFC_3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * Whether a string is an ISO 8601 / RFC 3339 date-time with a time zone (`2026-11-25T09:30:00Z`,
 * `2026-11-25T10:30:00.5+01:00`) naming a real instant: `2030-02-30T00:00:00Z` and a bare date are not.
 *
 * @example
 * isDateTime('2026-11-25T09:30:00Z'); // true
 * isDateTime('2026-11-25'); // false
 */
export function isDateTime(value: string): boolean {
  const match = RFC_3339.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHours = Number(match[9] ?? 0);
  const offsetMinutes = Number(match[10] ?? 0);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59 &&
    offsetHours <= 23 && offsetMinutes <= 59
  );
}

/** The generated query validators' `date-time` format (the shape ajv-formats' formats have). */
export const dateTimeFormat = { validate: isDateTime };
