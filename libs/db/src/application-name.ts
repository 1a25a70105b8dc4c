/**
 * The application_name a service's connections take when their URL sets none: libpq's `PGAPPNAME`
 * when the environment sets it (pg itself reads it, below any name passed in its options), else
 * the service's own name.
 */
export function defaultApplicationName(serviceName: string): string {
  return process.env.PGAPPNAME || serviceName;
}
