import { z } from 'zod';
import { controlCharacterProblem, limit, offset, text } from '../../params/common.ts';
import { embeddedJsonSchema, publishAs } from '../../params/published.ts';
import { PositionLine } from './position-line.ts';

/** GET /portfolios: the calling client's portfolios, oldest first. */
export const PortfoliosParams = z.strictObject({ limit: limit(100), offset });
export type PortfoliosParams = z.infer<typeof PortfoliosParams>;

export const PortfolioPath = z.strictObject({
  id: z.string().describe("Portfolio id, form pf_<id> (anything else, or another client's portfolio, is a 404)."),
});
export type PortfolioPath = z.infer<typeof PortfolioPath>;

export const PositionPath = z.strictObject({
  id: PortfolioPath.shape.id,
  position_id: z.string().describe('Position id, form pos_<id>, of a position of this portfolio (anything else is a 404).'),
});
export type PositionPath = z.infer<typeof PositionPath>;

const name = text(120)
  .superRefine((value, ctx) => {
    const problem = controlCharacterProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('A name for you to recognise it by, 1-120 characters.');

/** The id form of holder groups (services/domain/holder-groups.ts), as GET /analytics/holders answers group_id. */
export const HOLDER_GROUP_ID = /^grp_[0-9a-f]{20}$/;

const followHolderGroup = z
  .string()
  .regex(HOLDER_GROUP_ID, 'must be a holder group id: grp_ and 20 hex digits, as GET /api/v1/analytics/holders answers group_id')
  .nullable()
  .describe(
    "A holder group to follow (group_id of GET /api/v1/analytics/holders, grp_<20 hex digits>): a group the certificates don't name is a 400. null follows none.",
  );

/** POST /portfolios. */
export const CreatePortfolioBody = z.strictObject({ name, follow_holder_group: followHolderGroup.optional() });
export type CreatePortfolioBody = z.infer<typeof CreatePortfolioBody>;

/** PATCH /portfolios/{id}: a new name, another followed group (null: none), or both. */
export const UpdatePortfolioBody = z
  .strictObject({ name: name.optional(), follow_holder_group: followHolderGroup.optional() })
  .refine((b) => Object.keys(b).length > 0, 'must change at least one of name, follow_holder_group');
export type UpdatePortfolioBody = z.infer<typeof UpdatePortfolioBody>;

/** The most lines one request adds; the body limit (write.ts POSITIONS_BODY_LIMIT) is sized for this many. */
export const MAX_POSITION_LINES = 10_000;

/**
 * Each line is validated on its own by write.ts (position-line.ts), so a bad line is reported in
 * the answer by its number instead of failing the others. Published as a list of lines.
 */
const positions = publishAs(
  z
    .array(z.unknown(), 'must be a list of positions, e.g. [{"county": "lee", "certificate_number": "2023-004512", "tax_year": 2023}]')
    .min(1, 'must have at least one position')
    .max(MAX_POSITION_LINES, `takes at most ${MAX_POSITION_LINES.toLocaleString('en-US')} positions a request; send the rest in another`)
    .describe(
      `The certificates to add, 1 to ${MAX_POSITION_LINES.toLocaleString('en-US')}: each by certificate_id, or by county, certificate_number and tax_year. Each line is answered on its own, in order.`,
    ),
  () => ({ type: 'array', minItems: 1, maxItems: MAX_POSITION_LINES, items: embeddedJsonSchema(PositionLine, 'input') }),
);

/** POST /portfolios/{id}/positions. */
export const AddPositionsBody = z.strictObject({ positions });
export type AddPositionsBody = z.infer<typeof AddPositionsBody>;
