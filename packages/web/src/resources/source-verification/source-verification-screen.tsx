import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  countText,
  type ListData,
  lookupPageSizes,
  optionLabel,
  type PatientVisit,
  pageCount,
  type SdvStatus,
  sdvVerifiable,
  type VisitStatus,
  visitStatuses,
} from "@trialdesk/domain";
import { ArrowDown, ArrowUp, ArrowUpDown, BadgeCheck, Download, RotateCw, Search } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { ApiError, api, type Query } from "../../api/client";
import { invalidateResource, queryKeys, useLookupRows } from "../../api/queries";
import { getConfig } from "../../app/config";
import { toast } from "../../app/toast";
import { saveFile } from "../../screens/ListScreen";
import { useSearchText } from "../../screens/list-params";
import { type ParamChanges, useUrlParams } from "../../screens/url-params";
import { Button } from "../../ui/button";
import { Checkbox } from "../../ui/checkbox";
import { Field } from "../../ui/field";
import { FilterChips } from "../../ui/filter-chips";
import { Input } from "../../ui/input";
import { Pager } from "../../ui/pager";
import { Banner } from "../../ui/panel";
import { SearchableSelect } from "../../ui/select";
import { Spinner } from "../../ui/spinner";
import { TableArea, Td, Th } from "../../ui/table";
import { SdvBadge, sdvLabel } from "../patient-visits/sdv-parts";
import { dateOf } from "../queries/query-parts";

/**
 * Source verification (issue 44), the monitor's to-do: the completed visits of the sampled patients of
 * their studies, Pending, Reopened (changed since verified) or Verified. A monitor verifies one visit,
 * or a selection one after another; filters, search, order and page are kept in the URL.
 */
export type SdvRow = {
  patientVisitId: number;
  patientVisitUuid: string;
  barcode: string;
  screenNumber: string | null;
  siteId: number;
  studyId: number;
  studyName: string;
  visitName: string;
  visitDate: string | null;
  visitStatus: VisitStatus;
  sdvStatus: SdvStatus;
  sdvVerifiedAt: string | null;
  sdvVerifiedByName: string | null;
  openQueries: number;
};

/** The API path, also the first part of its query keys (the home page's counts read it too). */
export const sourceVerification = "source-verification";

/** The chips: every visit there is to verify or was verified (All), or one state. */
const chips: { value: SdvStatus | null; label: string }[] = [
  { value: null, label: "All" },
  ...(["PENDING", "REOPENED", "VERIFIED"] as const).map((value) => ({ value, label: sdvLabel(value) })),
];
const chosenSdvStatus = (param: string | null): SdvStatus | null =>
  chips.find((chip) => chip.value !== null && chip.value === param)?.value ?? null;

type Column = { key: string; title: string; sortable?: boolean };
/** The table's columns after the selection, under the titles the CSV export takes too. */
const columns: Column[] = [
  { key: "barcode", title: "Barcode" },
  { key: "screenNumber", title: "Screen Nr", sortable: true },
  { key: "studyName", title: "Study" },
  { key: "visitName", title: "Visit", sortable: true },
  { key: "visitDate", title: "Visit date", sortable: true },
  { key: "visitStatus", title: "Status", sortable: true },
  { key: "sdvStatus", title: "SDV" },
  { key: "sdvVerifiedByName", title: "Verified by" },
  { key: "openQueries", title: "Open queries" },
];
const exportColumns = [
  ...columns.map((c) => [c.key, c.title]),
  // The export has the date of the verification in a column of its own.
  ["sdvVerifiedAt", "Verified at"],
];

const positiveInt = (value: string | null, fallback: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const rowName = (row: SdvRow) => `${row.barcode} ${row.visitName}`;

/** The Study select: the monitor's studies (the server answers only theirs), or all of them. */
const allStudies = "*";
function StudyChoice({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  const studies = useLookupRows<{ id: number; workingName: string }>({
    resource: "studies",
    pageSize: lookupPageSizes.studies,
    query: { order: "workingName", direction: "asc" },
  });
  const options = [
    { value: allStudies, label: "All" },
    ...(studies.data ?? []).map((study) => ({ value: String(study.id), label: study.workingName })),
  ];
  return (
    <Field id="sdv-study" label="Study" className="w-64">
      {(control) => (
        <SearchableSelect
          {...control}
          options={options}
          loading={studies.isPending}
          value={value ?? allStudies}
          onChange={(next) => onChange(next === allStudies ? null : String(next))}
        />
      )}
    </Field>
  );
}

/** What Verify selected did: how many it verified and which failed, and why. */
type Outcome = { verified: number; failed: { name: string; reason: string }[] };

function outcomeText({ verified, failed }: Outcome): string {
  const done = `${countText(verified)} ${verified === 1 ? "visit" : "visits"} verified.`;
  if (failed.length === 0) return done;
  const why = failed.map((f) => `${f.name}: ${f.reason}`).join("; ");
  return `${done} ${countText(failed.length)} could not be verified: ${why}`;
}

/** The verified visit into the row the list shows, until the list is read again. */
const verifiedRow = (row: SdvRow, saved: Partial<PatientVisit>): SdvRow => ({
  ...row,
  sdvStatus: saved.sdvStatus ?? "VERIFIED",
  sdvVerifiedAt: saved.sdvVerifiedAt ?? row.sdvVerifiedAt,
  sdvVerifiedByName: saved.sdvVerifiedByName ?? row.sdvVerifiedByName,
});

export function SourceVerificationScreen() {
  const [params, updateParams] = useUrlParams();
  const page = positiveInt(params.get("page"), 1);
  const pageSize = positiveInt(params.get("pagesize"), getConfig().defaultPageSize);
  const studyId = params.get("studyId");
  const sdvStatus = chosenSdvStatus(params.get("sdvStatus"));
  const searchTerm = params.get("searchTerm") ?? "";
  const order = params.get("order") ?? "";
  const direction = params.get("direction") === "desc" ? "desc" : "asc";

  /** Changes some query parameters, keeping the others. Empty values leave the URL. */
  const update = (changes: ParamChanges, replace = false) => updateParams(changes, { replace });

  const filters: Query = {
    studyId: studyId ?? undefined,
    sdvStatus: sdvStatus ?? undefined,
    searchTerm: searchTerm || undefined,
    order: order || undefined,
    direction: order ? direction : undefined,
  };
  const query: Query = { ...filters, page, pagesize: pageSize };
  const listKey = queryKeys.list(sourceVerification, query);
  const list = useQuery({
    queryKey: listKey,
    queryFn: () => api.get<ListData<SdvRow>>(sourceVerification, query),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (list.error) toast({ title: `Can not load data: ${list.error.message}`, variant: "destructive" });
  }, [list.error]);
  const forbidden = list.error instanceof ApiError && list.error.status === 403;

  // A page past the end (rows verified away meanwhile) moves to the last page there is.
  const lastPage = list.data ? pageCount(list.data.pagination.total, pageSize) : 1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: update only writes the URL
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && page > lastPage)
      update({ page: lastPage > 1 ? lastPage : null }, true);
  }, [list.data, list.isPlaceholderData, page, lastPage]);

  // The search box: sent 300 ms after the last key, from page 1 (the lists' own hook).
  const [search, setSearch] = useSearchText({ searchTerm, update });

  const sortBy = (key: string) =>
    update({ order: key, direction: order === key && direction === "asc" ? "desc" : "asc", page: null });

  // The selection: rows by their visit's uuid, kept across pages, dropped when the filters change.
  const [selected, setSelected] = useState<Map<string, SdvRow>>(new Map());
  const filterKey = JSON.stringify([studyId, sdvStatus, searchTerm]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters' text stands for them
  useEffect(() => setSelected(new Map()), [filterKey]);
  const toggle = (rows: SdvRow[], on: boolean) =>
    setSelected((current) => {
      const next = new Map(current);
      for (const row of rows) {
        if (on) next.set(row.patientVisitUuid, row);
        else next.delete(row.patientVisitUuid);
      }
      return next;
    });

  const queryClient = useQueryClient();
  const verifyCall = (row: SdvRow) =>
    api.post<PatientVisit>(`patient-visits/${row.patientVisitUuid}/verification`);
  /** The row shows Verified at once; then the list, the home counts and the visit are read again. */
  const showVerified = (row: SdvRow, saved: Partial<PatientVisit>) =>
    queryClient.setQueryData<ListData<SdvRow>>(listKey, (old) =>
      old
        ? {
            ...old,
            items: old.items.map((r) =>
              r.patientVisitUuid === row.patientVisitUuid ? verifiedRow(r, saved) : r,
            ),
          }
        : old,
    );
  const refresh = () => invalidateResource(queryClient, sourceVerification);

  const [verifying, setVerifying] = useState<Set<string>>(new Set());
  const verifyOne = async (row: SdvRow) => {
    setVerifying((current) => new Set(current).add(row.patientVisitUuid));
    try {
      showVerified(row, await verifyCall(row));
      toggle([row], false);
      toast({ title: `${rowName(row)} verified`, variant: "success" });
    } catch (error) {
      toast({
        title: `Can not verify ${rowName(row)}`,
        description: error instanceof Error ? error.message : String(error),
        variant: "destructive",
      });
    } finally {
      setVerifying((current) => {
        const next = new Set(current);
        next.delete(row.patientVisitUuid);
        return next;
      });
      void refresh();
    }
  };

  // Verify selected: one after another (each is its own audited change), then what came of it.
  const [progress, setProgress] = useState<{ done: number; of: number } | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const verifySelected = useMutation({
    mutationFn: async (rows: SdvRow[]) => {
      const result: Outcome = { verified: 0, failed: [] };
      setProgress({ done: 0, of: rows.length });
      for (const [index, row] of rows.entries()) {
        try {
          showVerified(row, await verifyCall(row));
          result.verified++;
          toggle([row], false);
        } catch (error) {
          result.failed.push({
            name: rowName(row),
            reason: error instanceof Error ? error.message : String(error),
          });
        }
        setProgress({ done: index + 1, of: rows.length });
      }
      return result;
    },
    onSuccess: (result) => {
      setOutcome(result);
      toast({
        title: outcomeText(result),
        variant: result.failed.length === 0 ? "success" : "destructive",
      });
    },
    onSettled: () => {
      setProgress(null);
      void refresh();
    },
  });
  const toVerify = [...selected.values()].filter((row) => sdvVerifiable(row.sdvStatus));

  // Export CSV: every row of the current filters and order under the table's titles, as the lists do.
  const exporting = useMutation({
    mutationFn: () =>
      api.download(`${sourceVerification}/export`, { ...filters, columns: JSON.stringify(exportColumns) }),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? `${sourceVerification}.csv`),
    onError: (error) => toast({ title: `Can not export: ${error.message}`, variant: "destructive" }),
  });

  const items = list.data?.items ?? [];
  const selectable = items.filter((row) => sdvVerifiable(row.sdvStatus));
  const allOnPage = selectable.length > 0 && selectable.every((row) => selected.has(row.patientVisitUuid));
  const busy = verifySelected.isPending;
  const width = columns.length + 2;

  return (
    <section className="flex flex-col gap-3 rounded-lg border border-gray-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold text-gray-900">Source verification</h1>
        <div className="flex flex-wrap items-center gap-2">
          <div className="relative">
            <Search
              aria-hidden="true"
              className="pointer-events-none absolute top-1/2 left-2 size-4 -translate-y-1/2 text-gray-400"
            />
            <Input
              type="search"
              aria-label="Search"
              placeholder="Search"
              className="w-56 pl-8"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          </div>
          {!forbidden && (
            <Button
              variant="secondary"
              onClick={() => exporting.mutate()}
              disabled={exporting.isPending}
              aria-busy={exporting.isPending}
            >
              {exporting.isPending ? <Spinner /> : <Download aria-hidden="true" className="size-4" />}
              Export CSV
            </Button>
          )}
          <Button
            onClick={() => {
              setOutcome(null);
              verifySelected.mutate(toVerify);
            }}
            disabled={toVerify.length === 0 || busy}
            aria-busy={busy}
          >
            {busy ? <Spinner /> : <BadgeCheck aria-hidden="true" className="size-4" />}
            {progress
              ? `Verifying ${progress.done} of ${progress.of}`
              : `Verify selected (${toVerify.length})`}
          </Button>
        </div>
      </header>

      <fieldset className="flex flex-wrap items-end gap-3">
        <legend className="sr-only">Filters</legend>
        <StudyChoice value={studyId} onChange={(value) => update({ studyId: value, page: null })} />
      </fieldset>
      <FilterChips
        legend="Show visits that are"
        chips={chips}
        chosen={sdvStatus}
        onChoose={(value) => update({ sdvStatus: value, page: null })}
      />

      {outcome && (
        <Banner
          role={outcome.failed.length ? "alert" : "status"}
          tone={outcome.failed.length ? "error" : "note"}
        >
          {outcomeText(outcome)}
        </Banner>
      )}

      <TableArea label="Source verification">
        <thead>
          <tr>
            <Th className="w-px">
              <Checkbox
                id="sdv-select-page"
                label="Select all on this page"
                hideLabel
                checked={allOnPage}
                disabled={selectable.length === 0 || busy}
                onCheckedChange={(on) => toggle(selectable, on)}
              />
            </Th>
            <Th className="w-px">
              <span className="sr-only">Actions</span>
            </Th>
            {columns.map((column) => (
              <Th
                key={column.key}
                className="whitespace-nowrap"
                aria-sort={
                  column.sortable && order === column.key
                    ? direction === "asc"
                      ? "ascending"
                      : "descending"
                    : undefined
                }
              >
                {column.sortable ? (
                  <button
                    type="button"
                    className="inline-flex items-center gap-1 hover:text-gray-900 focus-visible:outline-2 focus-visible:outline-blue-600"
                    onClick={() => sortBy(column.key)}
                  >
                    {column.title}
                    {order === column.key ? (
                      direction === "asc" ? (
                        <ArrowUp aria-hidden="true" className="size-3.5" />
                      ) : (
                        <ArrowDown aria-hidden="true" className="size-3.5" />
                      )
                    ) : (
                      <ArrowUpDown aria-hidden="true" className="size-3.5 text-gray-400" />
                    )}
                  </button>
                ) : (
                  column.title
                )}
              </Th>
            ))}
          </tr>
        </thead>
        <tbody>
          {list.isPending ? (
            <tr>
              <Td colSpan={width} className="py-6 text-center">
                <Spinner label="Loading..." />
              </Td>
            </tr>
          ) : list.isError ? (
            <tr>
              <Td colSpan={width} className="py-6 text-center">
                {forbidden ? (
                  <p role="alert" className="text-gray-700">
                    You do not have permission to see these records.
                  </p>
                ) : (
                  <div role="alert" className="flex flex-col items-center gap-2 text-red-800">
                    <p>Loading failed: {list.error.message}</p>
                    <Button
                      variant="secondary"
                      onClick={() => void list.refetch()}
                      disabled={list.isFetching}
                    >
                      <RotateCw aria-hidden="true" className="size-4" />
                      Retry
                    </Button>
                  </div>
                )}
              </Td>
            </tr>
          ) : items.length === 0 ? (
            <tr>
              <Td colSpan={width} className="py-6 text-center text-gray-600">
                Nothing to verify
              </Td>
            </tr>
          ) : (
            items.map((row) => (
              <SdvTableRow
                key={row.patientVisitUuid}
                row={row}
                selected={selected.has(row.patientVisitUuid)}
                onSelect={(on) => toggle([row], on)}
                verifying={verifying.has(row.patientVisitUuid)}
                disabled={busy}
                onVerify={() => void verifyOne(row)}
              />
            ))
          )}
        </tbody>
      </TableArea>

      {list.data && (
        <Pager
          page={page}
          pageSize={pageSize}
          total={list.data.pagination.total}
          onPage={(p) => update({ page: p })}
        />
      )}
    </section>
  );
}

function SdvTableRow({
  row,
  selected,
  onSelect,
  verifying,
  disabled,
  onVerify,
}: {
  row: SdvRow;
  selected: boolean;
  onSelect: (on: boolean) => void;
  verifying: boolean;
  disabled: boolean;
  onVerify: () => void;
}) {
  const verifiable = sdvVerifiable(row.sdvStatus);
  const id = `sdv-${row.patientVisitUuid}`;
  return (
    <tr className="hover:bg-blue-50/50">
      <Td>
        <Checkbox
          id={`${id}-select`}
          label={`Select ${rowName(row)}`}
          hideLabel
          checked={selected}
          disabled={!verifiable || disabled}
          onCheckedChange={onSelect}
        />
      </Td>
      <Td className="whitespace-nowrap">
        {verifiable && (
          // First after the checkbox, so it is never scrolled out of sight; its row (barcode and visit)
          // describes which visit.
          <Button
            variant="secondary"
            className="px-2 py-1 text-xs"
            onClick={onVerify}
            disabled={verifying || disabled}
            aria-busy={verifying}
            aria-describedby={`${id}-name ${id}-visit`}
          >
            {verifying ? <Spinner /> : <BadgeCheck aria-hidden="true" className="size-4" />}
            Verify
          </Button>
        )}
        <span id={`${id}-visit`} className="sr-only">
          {row.visitName}
        </span>
      </Td>
      <Td id={`${id}-name`} className="whitespace-nowrap tabular-nums">
        {row.barcode}
      </Td>
      <Td className="whitespace-nowrap tabular-nums">{row.screenNumber ?? ""}</Td>
      <Td className="whitespace-nowrap">{row.studyName}</Td>
      <Td>
        <Link
          to={`/patient-visits/${row.patientVisitUuid}`}
          className="font-medium text-blue-800 underline-offset-2 hover:underline"
        >
          {row.visitName}
        </Link>
      </Td>
      <Td className="whitespace-nowrap">{row.visitDate ?? ""}</Td>
      <Td>{optionLabel(visitStatuses, row.visitStatus)}</Td>
      <Td>
        <SdvBadge status={row.sdvStatus} />
      </Td>
      <Td>
        {row.sdvVerifiedByName ? (
          <span className="flex flex-col">
            <span>{row.sdvVerifiedByName}</span>
            <span className="text-xs whitespace-nowrap text-gray-600">{dateOf(row.sdvVerifiedAt)}</span>
          </span>
        ) : (
          ""
        )}
      </Td>
      <Td className="text-right tabular-nums">{countText(row.openQueries ?? 0)}</Td>
    </tr>
  );
}
