import { ListView } from "./ListView";
import type { ListDescription, Row } from "./list-description";
import { useListController } from "./useListController";

export type { Column, ListDescription, ListFilter, Row } from "./list-description";
export { saveFile } from "./useListController";

/**
 * The generic list screen of spec §2.2: title, Add, a table with per-row actions, paging, search and
 * sort kept in the URL, and the remove flow (dialog "Remove item", toast "Item deleted", reload).
 * The URL's part is list-params.ts, what the screen does useListController.ts, how it looks ListView.tsx.
 */
export function ListScreen<T extends Row>({ description }: { description: ListDescription<T> }) {
  const controller = useListController(description);
  return <ListView description={description} controller={controller} />;
}
