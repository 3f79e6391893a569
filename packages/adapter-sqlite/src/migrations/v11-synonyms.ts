/**
 * Schema version 11: each tenant's synonyms, one row holding the whole set (its lines as a
 * JSON array, as core checked them). A set is replaced whole, in one write, and read whole by
 * searches (once per revision of the tenant), so one row serves both; a tenant without
 * synonyms has no row.
 */
export const V11_SYNONYMS = `
CREATE TABLE synonym_sets (
  tenant_id TEXT PRIMARY KEY REFERENCES tenants (id) ON DELETE CASCADE,
  lines TEXT NOT NULL
) STRICT, WITHOUT ROWID;
`
