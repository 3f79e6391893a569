/*
 * The demo site's structure: content categories with their custom fields, tags and inquiry
 * categories, as import records (README "CLI reference"). Fixed ids make a re-run of `frontdesk demo`
 * update the same records instead of adding new ones.
 */

/** The demo tenant's code. */
export const DEMO_TENANT = 'demo'

/** Content categories: corporate news, a blog, Japanese announcements, and an inactive archive. */
export const DEMO_CATEGORIES = [
  {
    kind: 'category',
    id: 'cat_demo_news',
    code: 'news',
    name: 'News',
    description: 'Corporate news and press releases',
    sort: 10,
    fields: [
      { id: 'fld_demo_importance', name: 'importance', type: 'select', options: ['high', 'normal', 'low'], required: true },
      { id: 'fld_demo_event_date', name: 'event_date', type: 'date' },
      { id: 'fld_demo_region', name: 'region', type: 'text' },
    ],
  },
  {
    kind: 'category',
    id: 'cat_demo_blog',
    code: 'blog',
    name: 'Blog',
    description: 'Articles from our engineers and designers',
    sort: 20,
    fields: [
      { id: 'fld_demo_reading_minutes', name: 'reading_minutes', type: 'number', required: true },
      { id: 'fld_demo_featured', name: 'featured', type: 'boolean' },
    ],
  },
  {
    kind: 'category',
    id: 'cat_demo_oshirase',
    code: 'oshirase',
    name: 'お知らせ',
    description: '日本のお客様へのお知らせ',
    sort: 30,
    fields: [
      { id: 'fld_demo_juyodo', name: 'juyodo', type: 'select', options: ['重要', '通常'], required: true },
      { id: 'fld_demo_kaisaibi', name: 'kaisaibi', type: 'date' },
    ],
  },
  {
    kind: 'category',
    id: 'cat_demo_archive',
    code: 'archive',
    name: 'Archive',
    description: 'Retired pages (inactive: hidden from the API)',
    sort: 90,
    active: false,
  },
] as const

/** Tags in both languages (content records may add more by name). */
export const DEMO_TAGS = [
  { kind: 'tag', id: 'tag_demo_product', name: 'product' },
  { kind: 'tag', id: 'tag_demo_company', name: 'company' },
  { kind: 'tag', id: 'tag_demo_event', name: 'event' },
  { kind: 'tag', id: 'tag_demo_engineering', name: 'engineering' },
  { kind: 'tag', id: 'tag_demo_design', name: 'design' },
  { kind: 'tag', id: 'tag_demo_security', name: 'security' },
  { kind: 'tag', id: 'tag_demo_seihin', name: '製品' },
  { kind: 'tag', id: 'tag_demo_kaisha', name: '会社情報' },
  { kind: 'tag', id: 'tag_demo_ibento', name: 'イベント' },
  { kind: 'tag', id: 'tag_demo_support', name: 'サポート' },
] as const

/** Inquiry categories offered by the contact form, one answering in Japanese. */
export const DEMO_INQUIRY_CATEGORIES = [
  {
    kind: 'inquiry_category',
    code: 'general',
    name: 'General question',
    description: 'Anything about our company or products',
    sort: 10,
    message: 'Thank you for contacting Example Corp. We will reply within two business days.',
  },
  {
    kind: 'inquiry_category',
    code: 'sales',
    name: 'Sales and pricing',
    description: 'Quotes, volume pricing and partnerships',
    sort: 20,
    message: 'Thank you for your interest. A member of our sales team will contact you shortly.',
  },
  {
    kind: 'inquiry_category',
    code: 'support',
    name: 'Technical support',
    description: 'Problems with a product you use',
    sort: 30,
  },
  {
    kind: 'inquiry_category',
    code: 'otoiawase',
    name: 'お問い合わせ（日本語）',
    description: '製品・サービスに関するご質問',
    sort: 40,
    message: 'お問い合わせありがとうございます。2営業日以内に担当者よりご連絡いたします。',
  },
] as const
