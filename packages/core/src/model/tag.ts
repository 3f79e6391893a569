/** A tag; names are unique per tenant. */
export interface Tag {
  id: string
  name: string
}

/** A tag as stored. */
export interface TagRecord extends Tag {
  tenant_id: string
}
