/**
 * The demo data (design §4) as plain data; seed.ts writes it. Safe to seed twice: existing codes
 * are kept.
 */
import type { ResourceName } from "@trialdesk/domain";
import { demoStudyUuid, type StepSettings } from "./factories";

export type DemoVisit = [name: string, visitTypeId: number, mandatory: 0 | 1];

/** The demo sites; the demo staff member works at the first. */
export const demoSites = [
  {
    code: "BUD",
    name: "Budapest Clinical Research Centre",
    shortName: "Budapest CRC",
    barcodePrefix: "BUD-",
    city: "Budapest",
    countryCode: "HU",
    address: "Üllői út 26.",
  },
  {
    code: "VIE",
    name: "Vienna Trial Clinic",
    shortName: "Vienna TC",
    barcodePrefix: "VIE-",
    city: "Vienna",
    countryCode: "AT",
    address: "Währinger Gürtel 18–20",
  },
  {
    code: "WAW",
    name: "Warsaw Medical Research Site",
    shortName: "Warsaw MRS",
    barcodePrefix: "WAW-",
    city: "Warsaw",
    countryCode: "PL",
    address: "ul. Banacha 1a",
  },
];

export const demoPartners = [
  { code: "ACR", name: "Acme Clinical Research", cro: true, sponsor: false },
  { code: "NRT", name: "Nordic Trials", cro: true, sponsor: false },
  { code: "MDP", name: "Medicor Pharma", cro: false, sponsor: true },
  { code: "HLX", name: "Helix Biotech", cro: false, sponsor: true },
  { code: "UNR", name: "Unity Research", cro: true, sponsor: true },
];

/**
 * The demo records of the resources that reference nothing, by resource, as their rows are stored:
 * seed.ts writes every list here the same way, so such a resource adds its list and nothing else.
 */
export const demoRecords = { sites: demoSites, partners: demoPartners } satisfies Partial<
  Record<ResourceName, Record<string, unknown>[]>
>;

export const demoTherapy: Record<string, { name: string; areas: [string, string][] }> = {
  ONC: {
    name: "Oncology",
    areas: [
      ["BRC", "Breast cancer"],
      ["LUC", "Lung cancer"],
      ["CRC", "Colorectal cancer"],
      ["PRC", "Prostate cancer"],
      ["LEU", "Leukaemia"],
      ["LYM", "Lymphoma"],
    ],
  },
  CAR: {
    name: "Cardiology",
    areas: [
      ["HFL", "Heart failure"],
      ["HYP", "Hypertension"],
      ["AFB", "Atrial fibrillation"],
      ["CAD", "Coronary artery disease"],
    ],
  },
  NEU: {
    name: "Neurology",
    areas: [
      ["ALZ", "Alzheimer's disease"],
      ["PKD", "Parkinson's disease"],
      ["MSC", "Multiple sclerosis"],
      ["EPI", "Epilepsy"],
      ["MIG", "Migraine"],
    ],
  },
  IMM: {
    name: "Immunology",
    areas: [
      ["RHA", "Rheumatoid arthritis"],
      ["PSO", "Psoriasis"],
      ["LUP", "Lupus"],
    ],
  },
  END: {
    name: "Endocrinology",
    areas: [
      ["T1D", "Type 1 diabetes"],
      ["T2D", "Type 2 diabetes"],
      ["OBE", "Obesity"],
      ["THY", "Thyroid disorders"],
    ],
  },
  INF: {
    name: "Infectious diseases",
    areas: [
      ["HIV", "HIV infection"],
      ["HBV", "Hepatitis B"],
      ["FLU", "Influenza"],
      ["COV", "COVID-19"],
    ],
  },
  RES: {
    name: "Respiratory",
    areas: [
      ["AST", "Asthma"],
      ["COP", "COPD"],
      ["CYF", "Cystic fibrosis"],
    ],
  },
  GAS: {
    name: "Gastroenterology",
    areas: [
      ["ULC", "Ulcerative colitis"],
      ["CRD", "Crohn's disease"],
      ["IBS", "Irritable bowel syndrome"],
    ],
  },
};

/**
 * Study monitors on record; the first signs in to the demo (README) and is assigned to the demo study
 * (issue 44).
 */
export const demoMonitors = [
  { email: "monitor@example.com", firstName: "Mona", lastName: "Monitor", password: "monitor1234" },
  { email: "maria.monitor@example.com", firstName: "Maria", lastName: "Monti", password: "monitor1234" },
  { email: "peter.checker@example.com", firstName: "Peter", lastName: "Checker", password: "monitor1234" },
];

/** Two projects with every tab filled; the studies of the demo data belong to them. */
export const demoProjects = [
  {
    workingName: "HEART-FAIL III",
    protocolNr: "TD-2025-001",
    cro: "ACR",
    sponsor: "MDP",
    therapyArea: "HFL",
    sites: ["BUD", "VIE"],
    projectStatusId: 30,
    details: {
      longName: "Heart failure outcomes with cardiozan",
      officialTitle:
        "A randomised, double-blind, placebo-controlled study of cardiozan in adults with chronic heart failure",
      officialUrl: "https://clinicaltrials.example.org/study/TD-2025-001",
      phase: 3,
      ipName: "Cardiozan 20 mg",
    },
    finance: {
      settlementDays: 30,
      paymentDays: 45,
      patientFee: 1850,
      currency: "EUR" as const,
      vat: 27,
      paidPercentage: 80,
      monitoredPercentage: 100,
    },
    settings: { rescreen: true, cohortHandling: false, hospitalisation: true },
  },
  {
    workingName: "LUNG-TARGET II",
    protocolNr: "TD-2025-002",
    cro: "NRT",
    sponsor: "HLX",
    therapyArea: "LUC",
    sites: ["WAW", "BUD"],
    projectStatusId: 20,
    details: {
      longName: "Targeted therapy in advanced lung cancer",
      officialTitle:
        "An open-label, multicentre phase II study of helixumab in previously treated non-small cell lung cancer",
      officialUrl: "https://clinicaltrials.example.org/study/TD-2025-002",
      phase: 2,
      ipName: "Helixumab",
    },
    finance: {
      settlementDays: 60,
      paymentDays: 30,
      patientFee: 420000,
      currency: "HUF" as const,
      vat: 0,
      paidPercentage: 70,
      monitoredPercentage: 50,
    },
    settings: { rescreen: false, cohortHandling: true, hospitalisation: false },
  },
];

/**
 * Three studies of the demo projects, each with its visit definitions and one randomisation visit.
 * The first is the demo study the home page's Visit summary tile points at.
 */
export const demoStudies: {
  uuid?: string;
  protocolNr: string;
  variant: "NORMAL" | "SUB-STUDY";
  fpfv: string;
  lpfv: string;
  lplv: string;
  projectStatusId: number;
  visits: DemoVisit[];
}[] = [
  {
    uuid: demoStudyUuid,
    protocolNr: "TD-2025-001",
    variant: "NORMAL",
    fpfv: "2025-03-03",
    lpfv: "2026-06-30",
    lplv: "2027-03-31",
    projectStatusId: 30,
    visits: [
      ["Screening", 20, 1],
      ["Run-in", 30, 1],
      ["Randomisation", 50, 1],
      ["Week 2", 60, 1],
      ["Week 4", 60, 1],
      ["Week 8", 60, 1],
      ["Week 12", 60, 1],
      ["Week 16 phone call", 110, 0],
      ["Week 24 / End of treatment", 70, 1],
      ["Safety follow up", 120, 1],
      ["End of study", 80, 1],
      ["Unscheduled", 100, 0],
    ],
  },
  {
    protocolNr: "TD-2025-001",
    variant: "SUB-STUDY",
    fpfv: "2025-06-02",
    lpfv: "2026-06-30",
    lplv: "2027-03-31",
    projectStatusId: 20,
    visits: [
      ["Screening", 20, 1],
      ["Randomisation", 50, 1],
      ["Echocardiography", 65, 1],
      ["Week 4", 60, 1],
      ["Week 12", 60, 1],
      ["Phone follow up", 130, 0],
      ["End of treatment", 70, 1],
      ["End of study", 80, 1],
    ],
  },
  {
    protocolNr: "TD-2025-002",
    variant: "NORMAL",
    fpfv: "2025-09-01",
    lpfv: "2027-02-26",
    lplv: "2028-02-29",
    projectStatusId: 20,
    visits: [
      ["Prescreening", 10, 0],
      ["Screening", 20, 1],
      ["Randomisation", 50, 1],
      ["Cycle 1 Day 1", 60, 1],
      ["Cycle 2 Day 1", 60, 1],
      ["Cycle 3 Day 1", 60, 1],
      ["Tumour assessment", 65, 1],
      ["End of treatment", 70, 1],
      ["Follow up", 120, 1],
      ["End of study", 80, 1],
    ],
  },
];

/**
 * Demo studyplans (issue 8): the demo study's plan is complete (every mandatory visit and the
 * optional phone call, with days and windows a protocol would give), the sub-study's is incomplete
 * (four of its six mandatory visits), and the third study has none — one of each list status.
 * Each step is [days to the next visit, window before, window after].
 */
export const demoStudyplans: { protocolNr: string; variant: string; steps: [string, ...StepSettings][] }[] = [
  {
    protocolNr: "TD-2025-001",
    variant: "NORMAL",
    steps: [
      ["Screening", 14, 2, 2],
      ["Run-in", 14, 2, 2],
      ["Randomisation", 14, 2, 2],
      ["Week 2", 14, 3, 3],
      ["Week 4", 28, 3, 3],
      ["Week 8", 28, 5, 5],
      ["Week 12", 28, 5, 5],
      ["Week 16 phone call", 56, 7, 7],
      ["Week 24 / End of treatment", 28, 3, 7],
      ["Safety follow up", 14, 3, 3],
      ["End of study", 0, 0, 0],
    ],
  },
  {
    protocolNr: "TD-2025-001",
    variant: "SUB-STUDY",
    steps: [
      ["Screening", 14, 2, 2],
      ["Randomisation", 28, 3, 3],
      ["Week 4", 56, 5, 5],
      ["Week 12", 0, 0, 0],
    ],
  },
];
