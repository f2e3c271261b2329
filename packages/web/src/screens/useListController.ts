import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { changeNeedsReason, type ListData, pageCount } from "@trialdesk/domain";
import { useEffect, useState } from "react";
import { ApiError, api } from "../api/client";
import { invalidateResource, queryKeys } from "../api/queries";
import { toast } from "../app/toast";
import type { ListDescription, Row } from "./list-description";
import { useListParams, useSearchText } from "./list-params";
import { useCanWrite } from "./navigation";
import { type ChangeHeaders, useReasonForChange } from "./reason-for-change";

/**
 * What a list screen does, apart from how it looks: the actions the user may take, the list call
 * for the URL's page, search, sort and filters, the remove flow and the CSV export.
 */
export function useListController<T extends Row>(description: ListDescription<T>) {
  const { resource, columns, routeId = "uuid" } = description;
  const canWrite = useCanWrite(description.resource);
  const allowed = { add: true, edit: true, view: true, remove: false, ...description.options };
  const options = {
    ...allowed,
    add: allowed.add && canWrite,
    edit: allowed.edit && canWrite,
    remove: allowed.remove && canWrite,
  };
  const params = useListParams(description);
  const { page, pageSize, query, update } = params;

  const list = useQuery({
    queryKey: queryKeys.list(resource, query),
    queryFn: () => api.get<ListData<T>>(resource, query),
    placeholderData: keepPreviousData,
  });

  // A page past the end (an old link, rows removed meanwhile) moves to the last page there is.
  const lastPage = list.data ? pageCount(list.data.pagination.total, pageSize) : 1;
  // biome-ignore lint/correctness/useExhaustiveDependencies: update only writes the URL
  useEffect(() => {
    if (list.data && !list.isPlaceholderData && page > lastPage)
      update({ page: lastPage > 1 ? lastPage : null }, true);
  }, [list.data, list.isPlaceholderData, page, lastPage]);

  useEffect(() => {
    if (list.error) toast({ title: `Can not load data: ${list.error.message}`, variant: "destructive" });
  }, [list.error]);
  // A list the user may not see (403) says so in the table, not "Loading failed".
  const forbidden = list.error instanceof ApiError && list.error.status === 403;

  const [search, setSearch] = useSearchText(params);

  // The remove flow of spec §4: select, confirm, delete by uuid, toast, reload, close, clear.
  const [selected, setSelected] = useState<T | null>(null);
  const queryClient = useQueryClient();
  // Removing recorded clinical data says why (issue 46, point 1), asked once Yes is chosen.
  const reasons = useReasonForChange(resource, "Remove");
  const remove = useMutation({
    mutationFn: ({ item, headers }: { item: T; headers: ChangeHeaders }) =>
      api.delete<{ deleted: boolean }>(`${resource}/${item[routeId]}`, headers),
    onSuccess: async () => {
      toast({ title: "Item deleted", variant: "success" });
      // Reloads the current page (and whatever else shows the resource); if it was the last row of
      // the last page, the page moves back.
      await invalidateResource(queryClient, resource);
    },
    onError: (error) => toast({ title: `Can not delete item: ${error.message}`, variant: "destructive" }),
    onSettled: () => setSelected(null),
  });
  /** Yes in the Remove dialog: the reason for the change first when the record needs one. */
  const confirmRemove = async () => {
    if (!selected) return;
    const item = selected;
    if (changeNeedsReason(resource, item)) setSelected(null);
    const headers = await reasons.headersFor(item);
    if (headers) remove.mutate({ item, headers });
  };

  // Export CSV (issue 15): every row of the current search, filters and order, not just the page,
  // under the list's own column titles. The server streams it; the bearer token rules out a plain
  // link, so the answer is fetched and handed to the browser as a file.
  const { page: _page, pagesize: _pagesize, ...exportQuery } = query;
  const exporting = useMutation({
    mutationFn: () =>
      api.download(`${resource}/export`, {
        ...exportQuery,
        columns: JSON.stringify(columns.map((column) => [column.key, column.title])),
      }),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? `${resource}.csv`),
    onError: (error) => toast({ title: `Can not export: ${error.message}`, variant: "destructive" }),
  });

  return {
    options,
    routeId,
    params,
    search,
    setSearch,
    list,
    forbidden,
    items: list.data?.items ?? [],
    total: list.data?.pagination.total ?? 0,
    selected,
    setSelected,
    removing: remove.isPending,
    confirmRemove,
    reasonDialog: reasons.dialog,
    exporting,
  };
}

export type ListController<T extends Row = Row> = ReturnType<typeof useListController<T>>;

/** Hands a fetched file to the browser's downloads through a temporary link. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it starts; the URL only has to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
