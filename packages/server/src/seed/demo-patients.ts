import type { PatientInput } from "@trialdesk/domain";
import { count, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { patients } from "../resources/patients/patients.table";
import { sites } from "../resources/sites/sites.table";
import { createPatient } from "./factories";

type Person = [firstName: string, lastName: string, sex: "MALE" | "FEMALE"];

/** Names, places and phone formats per demo site's country. */
const people: Record<
  string,
  { country: string; cities: [string, string][]; streets: string[]; phone: string; people: Person[] }
> = {
  BUD: {
    country: "HU",
    cities: [
      ["Budapest", "1085"],
      ["Budapest", "1117"],
      ["Érd", "2030"],
      ["Szentendre", "2000"],
      ["Gödöllő", "2100"],
    ],
    streets: [
      "Üllői út",
      "Rákóczi út",
      "Fő utca",
      "Petőfi Sándor utca",
      "Kossuth Lajos utca",
      "Dózsa György út",
    ],
    phone: "+36 30",
    people: [
      ["Anna", "Kovács", "FEMALE"],
      ["László", "Nagy", "MALE"],
      ["Katalin", "Tóth", "FEMALE"],
      ["Zoltán", "Szabó", "MALE"],
      ["Erzsébet", "Horváth", "FEMALE"],
      ["István", "Varga", "MALE"],
      ["Ilona", "Kiss", "FEMALE"],
      ["Gábor", "Molnár", "MALE"],
      ["Éva", "Németh", "FEMALE"],
      ["Péter", "Farkas", "MALE"],
      ["Judit", "Balogh", "FEMALE"],
      ["Attila", "Papp", "MALE"],
      ["Zsuzsanna", "Takács", "FEMALE"],
      ["Sándor", "Juhász", "MALE"],
      ["Mária", "Lakatos", "FEMALE"],
      ["Tamás", "Mészáros", "MALE"],
      ["Ágnes", "Oláh", "FEMALE"],
      ["József", "Simon", "MALE"],
      ["Andrea", "Rácz", "FEMALE"],
      ["Ferenc", "Fekete", "MALE"],
      ["Krisztina", "Szilágyi", "FEMALE"],
      ["Csaba", "Török", "MALE"],
      ["Noémi", "Fehér", "FEMALE"],
      ["Béla", "Balázs", "MALE"],
      ["Eszter", "Gál", "FEMALE"],
      ["Miklós", "Kis", "MALE"],
    ],
  },
  VIE: {
    country: "AT",
    cities: [
      ["Wien", "1090"],
      ["Wien", "1180"],
      ["Mödling", "2340"],
      ["Baden", "2500"],
    ],
    streets: ["Währinger Straße", "Alser Straße", "Hauptstraße", "Mariahilfer Straße"],
    phone: "+43 664",
    people: [
      ["Lukas", "Gruber", "MALE"],
      ["Sophie", "Huber", "FEMALE"],
      ["Maximilian", "Bauer", "MALE"],
      ["Anna", "Wagner", "FEMALE"],
      ["Tobias", "Pichler", "MALE"],
      ["Lena", "Steiner", "FEMALE"],
      ["Florian", "Moser", "MALE"],
      ["Julia", "Mayer", "FEMALE"],
      ["Elias", "Hofer", "MALE"],
    ],
  },
  WAW: {
    country: "PL",
    cities: [
      ["Warszawa", "02-097"],
      ["Warszawa", "00-950"],
      ["Piaseczno", "05-500"],
    ],
    streets: ["ul. Banacha", "ul. Marszałkowska", "ul. Puławska", "al. Jerozolimskie"],
    phone: "+48 60", // + 7 digits: a Polish mobile number has 9
    people: [
      ["Piotr", "Nowak", "MALE"],
      ["Agnieszka", "Kowalska", "FEMALE"],
      ["Krzysztof", "Wiśniewski", "MALE"],
      ["Magdalena", "Wójcik", "FEMALE"],
      ["Tomasz", "Kamiński", "MALE"],
      ["Katarzyna", "Lewandowska", "FEMALE"],
      ["Paweł", "Zieliński", "MALE"],
    ],
  },
};

/** A few patients are inactive, with the reason staff wrote down. */
const inactiveReasons = ["Moved abroad", "Withdrew consent", "Lost to follow-up"];

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** The demo patient number `i` of a site, varied but the same on every run. */
function demoPatient(code: string, i: number): PatientInput {
  const data = people[code];
  const [firstName, lastName, sex] = data.people[i];
  const [city, postalCode] = data.cities[i % data.cities.length];
  const year = 1945 + ((i * 7 + code.charCodeAt(0)) % 58);
  const birthDate = `${year}-${pad((i % 12) + 1, 2)}-${pad(((i * 5) % 28) + 1, 2)}`;
  const inactive = i % 9 === 4;
  const phone = `${data.phone} ${pad(100 + ((i * 37) % 900), 3)} ${pad(1000 + ((i * 611) % 9000), 4)}`;
  const contacts: PatientInput["contacts"] = [{ id: null, contactType: "PHONE", value: phone, notes: null }];
  if (i % 3 === 0) {
    const email = `${firstName}.${lastName}`
      .normalize("NFD")
      .replace(/[^\w.]/g, "")
      .replace(/ł/g, "l")
      .toLowerCase();
    contacts.push({ id: null, contactType: "EMAIL", value: `${email}@example.com`, notes: null });
  }
  if (i % 4 === 1)
    contacts.push({
      id: null,
      contactType: "PHONE",
      value: `${data.phone} ${pad(200 + i, 3)} ${pad(5000 + i * 13, 4)}`,
      notes: "Relative, call if unreachable",
    });
  return {
    status: inactive ? 0 : 1,
    statusDetails: inactive ? inactiveReasons[i % inactiveReasons.length] : null,
    recorderSiteId: null,
    patientDetail: {
      firstName,
      lastName,
      ssn: code === "BUD" ? `${pad(100_000_000 + i * 7_919_357, 9).slice(-9)}` : null,
      birthName:
        sex === "FEMALE" && i % 5 === 0 ? `${lastName === "Kiss" ? "Nagy" : "Kiss"} ${firstName}` : null,
      birthDate,
      birthCountryCode: data.country,
      birthCity: city,
      motherName: i % 2 === 0 ? `${data.people[(i + 3) % data.people.length][1]} Mária` : null,
      sex,
      notes: null,
    },
    address: {
      id: null,
      countryCode: data.country,
      city,
      postalCode,
      streetAddress: `${data.streets[i % data.streets.length]} ${((i * 3) % 120) + 1}.`,
      additionalAddressLine: null,
      addressType: "DEFAULT",
    },
    contacts,
  };
}

/**
 * 42 demo patients (design §4): most at the first site, where the demo staff member works, the
 * rest at the other two; barcodes come from each site's counter, as for patients created in the app.
 * Sites that already have patients are left alone, so seeding twice adds nothing.
 */
export async function seedPatients(db: Db) {
  for (const [code, data] of Object.entries(people)) {
    const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, code));
    if (!site) continue;
    const [existing] = await db
      .select({ n: count() })
      .from(patients)
      .where(eq(patients.recorderSiteId, site.id));
    if (Number(existing.n) > 0) continue;
    for (let i = 0; i < data.people.length; i++) await createPatient(db, site.id, demoPatient(code, i));
  }
}

export const demoPatientCount = Object.values(people).reduce((n, site) => n + site.people.length, 0);
