import { z } from 'zod';
import { objectResponse } from '../envelope.ts';

/** The optional Idempotency-Key of every write (idempotency.ts), documented as a header parameter. */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'must be 1-255 visible ASCII characters (a UUID is a good key)')
    .optional()
    .describe(
      'Makes a retry safe: the same key with the same request within 24 hours answers the first answer again (Idempotent-Replayed: true) and changes nothing; the same key with another request is 409 idempotency_conflict. Keys are per client.',
    ),
});

/** The sentence every write operation's description ends with. */
export const IDEMPOTENT =
  ' An Idempotency-Key header makes a retry safe: a retry with the same key and request answers the first answer again, with the header Idempotent-Replayed: true. 1 credit, like any request.';

export const DeletedObject = z
  .object({
    id: z.string().describe('The id of what was deleted.'),
    deleted: z.literal(true).describe('Always true.'),
  })
  .strict();
export const DeletedResponse = objectResponse(DeletedObject);
