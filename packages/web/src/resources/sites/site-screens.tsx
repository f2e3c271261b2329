import { prepareSiteForSave, type Site, type SiteInput } from "@trialdesk/domain";
import { type DetailDescription, DetailScreen } from "../../screens/DetailScreen";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { countryName } from "../../ui/country-select";
import { codeField, nameField } from "../reference-data";

/** Sites (spec §2.5, §3, §5): reference data written by administrators. */
const list: ListDescription<Site> = {
  resource: "sites",
  columns: [
    { key: "id", title: "Id", sortable: true, className: "w-20" },
    { key: "name", title: "Name", sortable: true },
    { key: "shortName", title: "Short name", sortable: true },
    { key: "code", title: "Code", sortable: true, className: "w-24" },
    {
      key: "countryCode",
      title: "Country",
      sortable: true,
      className: "w-24",
      format: (site) =>
        site.countryCode ? <span title={countryName(site.countryCode)}>{site.countryCode}</span> : "",
    },
    { key: "city", title: "City", sortable: true },
  ],
  options: { remove: true },
};

const form: FormDescription<Partial<SiteInput>> = {
  resource: "sites",
  // What is sent, checked and stored is the barcode prefix with its separator.
  prepare: prepareSiteForSave,
  fields: [
    nameField,
    { name: "shortName", label: "Short name", required: true },
    codeField("2 to 5 characters, unique"),
    {
      name: "barcodePrefix",
      label: "Barcode prefix",
      // Patient barcodes start with it, so the server requires it (design §4).
      required: true,
      width: "small",
      hint: "2 to 4 characters, letters and numbers only, a separator is added automatically",
    },
    { name: "address", label: "Address", width: "full" },
    { name: "city", label: "City" },
    { name: "countryCode", label: "Country", kind: "country" },
  ],
};

const detail: DetailDescription<Site> = {
  resource: "sites",
  rows: [
    { label: "Name", value: (site) => site.name },
    { label: "Short name", value: (site) => site.shortName },
    { label: "Code", value: (site) => site.code },
    { label: "Barcode prefix", value: (site) => site.barcodePrefix || "—" },
    { label: "Address", value: (site) => site.address || "—" },
    { label: "City", value: (site) => site.city || "—" },
    {
      label: "Country",
      value: (site) => (site.countryCode ? `${countryName(site.countryCode)} (${site.countryCode})` : "—"),
    },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
