import type { MenuItem } from "@trialdesk/domain";
import type { SessionUser } from "./guards";

const item = (
  key: string,
  label: string,
  route: string | null,
  icon: string,
  children: MenuItem[] = [],
): MenuItem => ({
  key,
  label,
  route,
  icon,
  iconVariant: null,
  children,
});

/**
 * Every screen of the spec (§2.1) with its label, grouped; icons are lucide-react names. The
 * Administration group is for administrators only (DESIGN §4).
 */
export function menuFor(user: SessionUser, summaryStudyUuid: string | null): MenuItem[] {
  const patients = [
    item("worklist", "Worklist", "/worklist", "list-todo"),
    item("patients", "Patients", "/patients", "user-round"),
    item("study-patients", "Study patients", "/study-patients", "clipboard-list"),
    item("patient-visits", "Patient visits", "/patient-visits", "calendar-check"),
  ];
  if (summaryStudyUuid) {
    patients.push(item("visit-summary", "Visit summary", `/visit-summary/${summaryStudyUuid}`, "grid-3x3"));
  }
  const menu = [
    item("home", "Home", "/", "house"),
    item("patients-group", "Patients", null, "users", patients),
    item("studies-group", "Studies", null, "flask-conical", [
      item("projects", "Projects", "/projects", "folder-kanban"),
      item("studies", "Studies", "/studies", "flask-conical"),
      item("visits", "Visits", "/visits", "calendar-days"),
      item("studyplans", "Studyplans", "/studyplans", "list-ordered"),
    ]),
    item("reference-data", "Reference data", null, "book-open", [
      item("therapy-categories", "Therapy categories", "/therapy-categories", "tags"),
      item("therapy-areas", "Therapy areas", "/therapy-areas", "tag"),
      item("partners", "Partners", "/partners", "handshake"),
      item("sites", "Sites", "/sites", "building-2"),
    ]),
  ];
  if (user.isAdmin) {
    menu.push(
      item("administration", "Administration", null, "shield", [
        item("users", "Users", "/users", "user-cog"),
        item("monitors", "Monitors", "/monitors", "user-check"),
      ]),
    );
  }
  return menu;
}
