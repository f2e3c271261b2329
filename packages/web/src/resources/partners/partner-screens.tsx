import type { Partner, PartnerInput } from "@trialdesk/domain";
import { type DetailDescription, DetailScreen } from "../../screens/DetailScreen";
import { type FormDescription, FormScreen } from "../../screens/FormScreen";
import { type ListDescription, ListScreen } from "../../screens/ListScreen";
import { Badge } from "../../ui/badge";
import { codedColumns, codeField, nameField } from "../reference-data";

const yesNo = (flag: boolean) => (flag ? "Yes" : "No");

/** The Type column: a CRO badge and an amber Sponsor badge by the flags, nothing when neither (spec §2.5). */
export function PartnerType({ partner }: { partner: Pick<Partner, "cro" | "sponsor"> }) {
  return (
    <span className="inline-flex gap-1">
      {partner.cro && <Badge color="blue">CRO</Badge>}
      {partner.sponsor && <Badge color="amber">Sponsor</Badge>}
    </span>
  );
}

/** Partners (spec §2.5, §3, §5): CROs and sponsors, written by administrators. */
const list: ListDescription<Partner> = {
  resource: "partners",
  columns: [
    ...codedColumns,
    { key: "type", title: "Type", format: (partner) => <PartnerType partner={partner} /> },
  ],
  options: { remove: true },
};

const form: FormDescription<Partial<PartnerInput>> = {
  resource: "partners",
  fields: [
    nameField,
    // The spec's hint names the therapy area, copied from that form; it is the partner's code (issue 46,
    // point 12; decision 247).
    codeField("the code of the partner, 2 or 3 characters, unique"),
    { name: "cro", label: "CRO", kind: "checkbox" },
    { name: "sponsor", label: "Sponsor", kind: "checkbox" },
  ],
};

const detail: DetailDescription<Partner> = {
  resource: "partners",
  idLabel: "ID",
  rows: [
    { label: "Name", value: (partner) => partner.name },
    { label: "Code", value: (partner) => partner.code },
    { label: "CRO", value: (partner) => yesNo(partner.cro) },
    { label: "Sponsor", value: (partner) => yesNo(partner.sponsor) },
  ],
};

export const List = () => <ListScreen description={list} />;
export const Form = () => <FormScreen description={form} />;
export const Detail = () => <DetailScreen description={detail} />;
