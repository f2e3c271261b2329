import { lookupPageSizes } from "@trialdesk/domain";
import type { Lookup } from "../../screens/FormFields";

/** All sites as "code - shortName" (spec §7 Lookups: GET sites, page 1, size 250). */
export const siteLookup: Lookup = {
  resource: "sites",
  pageSize: lookupPageSizes.sites,
  option: (site) => ({ value: site.id, label: `${site.code} - ${site.shortName}` }),
};
