import { z } from 'zod';
import { countySlug } from '../../params/common.ts';

/** GET /counties takes no parameters; anything given is an unknown parameter (400). */
export const CountiesParams = z.strictObject({});
export type CountiesParams = z.infer<typeof CountiesParams>;

export const CountyPath = z.strictObject({ county: countySlug.describe('County slug, e.g. miami-dade') });
export type CountyPath = z.infer<typeof CountyPath>;
