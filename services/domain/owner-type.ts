import { isEntityName } from './holder-groups.ts';
import type { OwnerType } from './parcel-facts.ts';

/**
 * The owner type of a certificate (the `owner_type` filter): `entity` when its owner name is an
 * entity's by the holder-group rule (holder-groups.ts rule 4: a legal form such as LLC, INC,
 * L.L.C., LP, CORP anywhere in the name, or an entity word such as FUND, TRUST, BANK,
 * HOLDINGS, PROPERTIES, REALTY, INVESTMENTS), else `person`. The rule that tells "FL TAX LIEN FUND
 * 11 LLC" from "JOHN SMITH II" among bidders tells them apart among owners too; an owner name
 * the county left blank is a person's, the common case on the roll.
 */
export function ownerType(ownerName: string | null | undefined): OwnerType {
  return ownerName && isEntityName(ownerName) ? 'entity' : 'person';
}
