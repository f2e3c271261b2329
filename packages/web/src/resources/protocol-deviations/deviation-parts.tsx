import {
  type DeviationSeverity,
  type DeviationStatus,
  daysOutsideText,
  deviationKinds,
  deviationSeverities,
  deviationStatuses,
  optionLabel,
} from "@trialdesk/domain";
import { Link } from "react-router";
import { Badge, type BadgeColor } from "../../ui/badge";
import { TableArea, Td, Th } from "../../ui/table";

/**
 * What the deviation screens, the patient-visit form and the patient detail share (issue 43): a
 * deviation's words and badges, and the small table that lists some of them.
 */
export const kindLabel = (kind: string | null | undefined) =>
  optionLabel(deviationKinds, kind as (typeof deviationKinds)[number]["value"]);
export const severityLabel = (severity: string | null | undefined) =>
  optionLabel(deviationSeverities, severity as DeviationSeverity);
export const statusLabel = (status: string | null | undefined) =>
  optionLabel(deviationStatuses, status as DeviationStatus);

const statusColors: Record<DeviationStatus, BadgeColor> = {
  OPEN: "amber",
  REPORTED: "blue",
  CLOSED: "green",
  WITHDRAWN: "gray",
};

/** The status as a badge; a REPORTED or CLOSED automatic deviation whose cause went away says so beside it. */
export function DeviationStatusBadge({
  status,
  noLongerApplies,
}: {
  status: string | null | undefined;
  noLongerApplies?: boolean | null;
}) {
  if (!status) return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge color={statusColors[status as DeviationStatus] ?? "gray"}>{statusLabel(status)}</Badge>
      {noLongerApplies && <span className="text-xs text-gray-600">No longer applies</span>}
    </span>
  );
}

/** MAJOR is ICH E3's "important" deviation: red, so it stands out. */
export const SeverityBadge = ({ severity }: { severity: string | null | undefined }) =>
  severity ? <Badge color={severity === "MAJOR" ? "red" : "gray"}>{severityLabel(severity)}</Badge> : null;

/** A deviation as the small tables list it; the list rows and the visit form's entries both fit. */
export type DeviationEntry = {
  uuid: string;
  kind: string;
  daysOutside: number | null;
  status: string;
  noLongerApplies?: boolean | null;
  severity?: string | null;
  detectedOn?: string | null;
  studyName?: string | null;
  visitName?: string | null;
};

/**
 * Deviations in a small table, each kind linking to the deviation's detail. `wide` adds when it was
 * detected and its study and visit (the patient detail); the visit form knows those already.
 */
export function DeviationTable({
  label,
  deviations,
  wide = false,
}: {
  label: string;
  deviations: DeviationEntry[];
  wide?: boolean;
}) {
  return (
    <TableArea label={label}>
      <thead>
        <tr>
          {wide && <Th>Detected</Th>}
          {wide && <Th>Study</Th>}
          {wide && <Th>Visit</Th>}
          <Th>Kind</Th>
          <Th>Days outside</Th>
          {wide && <Th>Severity</Th>}
          <Th>Status</Th>
        </tr>
      </thead>
      <tbody>
        {deviations.map((deviation) => (
          <tr key={deviation.uuid}>
            {wide && <Td className="whitespace-nowrap">{deviation.detectedOn ?? ""}</Td>}
            {wide && <Td>{deviation.studyName ?? ""}</Td>}
            {wide && <Td>{deviation.visitName ?? "—"}</Td>}
            <Td>
              <Link
                to={`/protocol-deviations/${deviation.uuid}`}
                className="font-medium text-blue-800 underline-offset-2 hover:underline"
              >
                {kindLabel(deviation.kind)}
              </Link>
            </Td>
            <Td className="whitespace-nowrap">{daysOutsideText(deviation.daysOutside)}</Td>
            {wide && (
              <Td>
                <SeverityBadge severity={deviation.severity} />
              </Td>
            )}
            <Td>
              <DeviationStatusBadge status={deviation.status} noLongerApplies={deviation.noLongerApplies} />
            </Td>
          </tr>
        ))}
      </tbody>
    </TableArea>
  );
}
