import { z } from 'zod';

/** GET /account/usage takes no parameters (spec 4.12); an unknown one is a 400, like everywhere. */
export const UsageParams = z.strictObject({});
export type UsageParams = z.infer<typeof UsageParams>;
