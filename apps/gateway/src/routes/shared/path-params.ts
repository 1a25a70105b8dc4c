import { z } from 'zod';

/** `{uuid}` in a path: anything but a uuid names no object (404). */
export const UuidParams = z.object({ uuid: z.uuid() });

/** `{code}` in an account path: the account's code as the contract bounds it. */
export const CodeParams = z.object({ code: z.string().min(1).max(128) });
