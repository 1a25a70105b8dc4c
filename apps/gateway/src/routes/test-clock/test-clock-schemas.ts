import { z } from 'zod';
import { field } from '../../http/index.js';

/** POST /test-clock/advance/: the time to move the organization's clock to (ISO 8601; no offset: UTC). */
export const AdvanceBody = z.object({ to: field.datetime() });

/** The organization's clock: its time (ISO 8601, UTC) and its time zone. */
export const TestClockSchema = z
  .object({
    time: z.string().meta({ format: 'date-time' }),
    time_zone: z.string().meta({ description: "The organization's IANA time zone" }),
  })
  .meta({ id: 'TestClock' });
