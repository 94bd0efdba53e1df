// The training view of mnk serve (not written yet).
