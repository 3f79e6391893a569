/**
 * Schema version 3: public lists in id order (the `id` sort, and the items lacking a custom
 * sort field) read an index in order instead of sorting every visible item.
 */
export const V3_ID_ORDER_INDEX = `
CREATE INDEX contents_by_id ON contents (tenant_id, status, id);
`
