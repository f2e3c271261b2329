-- Patient search ignores accents: "kovacs" finds Kovács, "ujpest" Újpest (coordinators type names
-- without them). search_fold is the one definition of the folding, used by the stored search text and
-- by every searched word, so both sides fold alike: letters with diacritics of the sites' languages to
-- their base letter, ß to ss, then lower case. IMMUTABLE, so a searched word's pattern is folded once,
-- when the statement is planned, and the trigram index serves it.
CREATE FUNCTION "search_fold"(value text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT lower(translate(replace(replace(value, 'ß', 'ss'), 'ẞ', 'ss'),
    'áàâäãåāăąÁÀÂÄÃÅĀĂĄçćčĉċÇĆČĈĊďđĎĐéèêëēĕėęěÉÈÊËĒĔĖĘĚğĝġģĞĜĠĢĥħĤĦíìîïĩīĭįıÍÌÎÏĨĪĬĮİĵĴķĶĺļľŀłĹĻĽĿŁñńņňÑŃŅŇóòôöõøōŏőÓÒÔÖÕØŌŎŐŕŗřŔŖŘśŝşšșŚŜŞŠȘţťŧțŢŤŦȚúùûüũūŭůűųÚÙÛÜŨŪŬŮŰŲŵŴýÿŷÝŸŶźżžŹŻŽ',
    'aaaaaaaaaaaaaaaaaaccccccccccddddeeeeeeeeeeeeeeeeeegggggggghhhhiiiiiiiiiiiiiiiiiijjkkllllllllllnnnnnnnnoooooooooooooooooorrrrrrssssssssssttttttttuuuuuuuuuuuuuuuuuuuuwwyyyyyyzzzzzz'))
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "patients_search_text"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := search_fold(concat_ws(' ', NEW.last_name, NEW.first_name, NEW.barcode, NEW.ssn,
    (SELECT string_agg(c.value, ' ' ORDER BY c.position, c.id) FROM patient_contacts c
      WHERE c.patient_id = NEW.id AND c.contact_type = 'PHONE')));
  RETURN NEW;
END $$;--> statement-breakpoint
UPDATE "patients" SET "search_text" = NULL;
