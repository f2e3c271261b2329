/** Every table of the data model (spec §3), for Drizzle and drizzle-kit. */
export { auditEvents } from "../audit/audit.table";
export { loginFailures, refreshTokens, settings } from "../auth/auth.table";
export { monitors } from "../resources/monitors/monitors.table";
export { partners } from "../resources/partners/partners.table";
export { patientVisits } from "../resources/patient-visits/patient-visits.table";
export { addresses, patientContacts, patients } from "../resources/patients/patients.table";
export { projectSites, projects } from "../resources/projects/projects.table";
export { sites } from "../resources/sites/sites.table";
export { studies } from "../resources/studies/studies.table";
export { studyPatients } from "../resources/study-patients/study-patients.table";
export { studyplanScheduleEntries, studyplans } from "../resources/studyplans/studyplans.table";
export { therapyAreas } from "../resources/therapy-areas/therapy-areas.table";
export { therapyCategories } from "../resources/therapy-categories/therapy-categories.table";
export { userSites, users } from "../resources/users/users.table";
export { visits } from "../resources/visits/visits.table";
export { visitSchedule } from "../resources/worklist/visit-schedule.table";
