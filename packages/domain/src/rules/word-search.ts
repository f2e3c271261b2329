/**
 * How the worklist's search reads what was typed (issue 46, point 8). Every word must match the row:
 * a word that is a whole word of some visit's name ("Week", "12", "2") names visits and matches only
 * a visit whose name has that word, so "Week 12" finds Week 12 and neither Week 2 nor Week 120; any
 * other word is looked for inside the patient (name, barcode, SSN, phone), the screen number and the
 * study. A word of one character is too common inside a text to mean anything there, and finding it
 * costs a read of every patient: it counts only as a visit's word.
 */

/** The most words of a search that are looked for; the rest are left out. */
export const searchWordsMax = 8;

/** The words of a search's text, at most searchWordsMax, split at spaces. */
export function searchWords(text: string | null | undefined): string[] {
  return (text ?? "").trim().split(/\s+/).filter(Boolean).slice(0, searchWordsMax);
}

/** Whether a word is looked for inside texts (not only as a visit's word): two characters or more. */
export const searchedWithin = (word: string): boolean => [...word].length >= 2;

/**
 * A name's words as a search compares them: lower case, split at everything that is not a letter or
 * a digit ("Week 12 / phone" → week, 12, phone). The server compares the same way in SQL, on names
 * folded by its search_fold (accents off); a test holds both to these words.
 */
export function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Whether a typed word is one of the name's words ("12" is a word of "Week 12", not of "Week 120"). */
export const isWordOf = (name: string, word: string): boolean => nameWords(name).includes(word.toLowerCase());
