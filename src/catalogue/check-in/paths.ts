// The desk's check-in page (ADR 0061); its own file so the layout's staff navigation can link it.
export const CHECK_IN_PATH = '/rueckgabe';
