import { defineResource } from "../resource";
import { sites } from "./sites.table";

export const sitesResource = defineResource({
  name: "sites",
  table: sites,
  // The stored barcode prefix ends in its separator, whatever the client sent (spec §5, design §4).
  sort: {
    id: sites.id,
    name: sites.name,
    shortName: sites.shortName,
    code: sites.code,
    countryCode: sites.countryCode,
    city: sites.city,
  },
  search: [sites.name, sites.shortName, sites.code, sites.city],
  formats: {
    // The barcode counter stays the server's (design §4): neither shown nor writable.
    view: {
      fields: {
        id: sites.id,
        uuid: sites.uuid,
        version: sites.version,
        name: sites.name,
        shortName: sites.shortName,
        code: sites.code,
        barcodePrefix: sites.barcodePrefix,
        address: sites.address,
        city: sites.city,
        countryCode: sites.countryCode,
      },
    },
  },
});
