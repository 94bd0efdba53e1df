// The replay view of mnk serve (not written yet).
