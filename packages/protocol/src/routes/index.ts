/** The request and response schemas of every route, one module per subject. */
export {};
