import type { SiteOption } from "@trialdesk/domain";
import { useMemo } from "react";
import { useSession } from "../app/session";
import { useActiveSite, worksInSites } from "../app/site";
import { Panel } from "../ui/panel";
import { type FormDescription, FormScreen } from "./FormScreen";
import { type ListDescription, ListScreen, type Row } from "./ListScreen";

/**
 * Patient screens work in the active site (spec §1, §2.5); without one they show only this. A monitor
 * (issue 44) has no site to choose: they are told where their work is instead.
 */
export function NoSiteChosen() {
  const { user } = useSession();
  return (
    <Panel className="p-6">
      <p role="status" className="text-base font-medium text-gray-800">
        {worksInSites(user)
          ? "Please select a site first"
          : "This screen is the sites' own: monitors work from Source verification and Queries."}
      </p>
    </Panel>
  );
}

/** A list that works in the active site: described for the chosen site, or a request to choose one. */
export function siteScopedList<T extends Row>(listOf: (site: SiteOption) => ListDescription<T>) {
  return function List() {
    const { site } = useActiveSite();
    const description = useMemo(() => (site ? listOf(site) : null), [site]);
    return description ? <ListScreen description={description} /> : <NoSiteChosen />;
  };
}

/** A form that works in the active site, as `siteScopedList`. */
// biome-ignore lint/suspicious/noExplicitAny: form data is whatever the resource's form holds
export function siteScopedForm<T extends Record<string, any>>(
  formOf: (site: SiteOption) => FormDescription<T>,
) {
  return function Form() {
    const { site } = useActiveSite();
    const description = useMemo(() => (site ? formOf(site) : null), [site]);
    return description ? <FormScreen description={description} /> : <NoSiteChosen />;
  };
}
