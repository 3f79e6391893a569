/** A demo item before dates are fixed: `daysAgo` places it relative to the time of seeding. */
export interface DemoItem {
  id: string
  slug: string
  title: string
  category_code: string
  daysAgo: number
  author_name: string
  tags: string[]
  summary: string
  body: string
  content: Record<string, string | number | boolean>
  status?: 'draft' | 'published'
}

const p = (...paragraphs: string[]) => paragraphs.map((text) => `<p>${text}</p>`).join('\n')

/** English corporate news. */
export const DEMO_NEWS: DemoItem[] = [
  {
    id: 'cnt_demo_news_aurora_launch', slug: 'aurora-launch', title: 'Introducing Aurora, our new analytics platform', category_code: 'news', daysAgo: 2,
    author_name: 'Press Office', tags: ['product', 'company'], summary: 'Aurora brings real-time dashboards and forecasting to every team.',
    body: p('Today we are launching <strong>Aurora</strong>, an analytics platform built for teams that need answers in seconds, not days.', 'Aurora connects to your existing databases, refreshes dashboards in real time and forecasts demand with explainable models.', 'Aurora is available today in North America, Europe and Japan.'),
    content: { importance: 'high', event_date: '2025-06-20', region: 'Global' },
  },
  {
    id: 'cnt_demo_news_q2_results', slug: 'q2-results', title: 'Second quarter results: record revenue', category_code: 'news', daysAgo: 6,
    author_name: 'Investor Relations', tags: ['company'], summary: 'Revenue grew 18 % year over year, driven by subscription growth.',
    body: p('Revenue for the second quarter reached a record high, up 18 % year over year.', 'Subscription revenue now makes up 72 % of the total. We raise our outlook for the full year.'),
    content: { importance: 'normal', event_date: '2025-07-31', region: 'Global' },
  },
  {
    id: 'cnt_demo_news_osaka_office', slug: 'osaka-office-opening', title: 'New office opens in Osaka', category_code: 'news', daysAgo: 9,
    author_name: 'Press Office', tags: ['company', 'event'], summary: 'Our second office in Japan brings us closer to customers in Kansai.',
    body: p('We opened a new office in Umeda, Osaka, with room for 120 people.', 'The office hosts a customer briefing center and a support team serving western Japan.'),
    content: { importance: 'normal', event_date: '2025-09-01', region: 'Japan' },
  },
  {
    id: 'cnt_demo_news_security_cert', slug: 'iso-27001-certification', title: 'We achieved ISO/IEC 27001 certification', category_code: 'news', daysAgo: 13,
    author_name: 'Security Team', tags: ['security', 'company'], summary: 'An independent audit confirms our information security management.',
    body: p('After a six-month audit, our information security management system is certified to ISO/IEC 27001:2022.', 'The certificate covers product development, hosting and customer support.'),
    content: { importance: 'high', region: 'Global' },
  },
  {
    id: 'cnt_demo_news_partner_program', slug: 'partner-program', title: 'Launching the Example Partner Program', category_code: 'news', daysAgo: 17,
    author_name: 'Press Office', tags: ['company'], summary: 'Resellers and integrators get training, certification and co-marketing.',
    body: p('The Example Partner Program gives resellers and system integrators training, certification and joint marketing.', 'Founding partners include twelve companies in eight countries.'),
    content: { importance: 'normal', region: 'Global' },
  },
  {
    id: 'cnt_demo_news_devconf', slug: 'devconf-2025', title: 'Join us at DevConf 2025 in Berlin', category_code: 'news', daysAgo: 21,
    author_name: 'Events Team', tags: ['event'], summary: 'Meet our engineers at booth 14 and attend three talks on data pipelines.',
    body: p('We will be at DevConf 2025 in Berlin, booth 14.', 'Our engineers give three talks on streaming data pipelines, query planning and on-call culture.'),
    content: { importance: 'low', event_date: '2025-10-14', region: 'Europe' },
  },
  {
    id: 'cnt_demo_news_aurora_mobile', slug: 'aurora-mobile', title: 'Aurora now on iOS and Android', category_code: 'news', daysAgo: 26,
    author_name: 'Product Team', tags: ['product'], summary: 'Dashboards, alerts and comments, wherever you are.',
    body: p('The Aurora mobile apps bring dashboards, alerts and comment threads to your phone.', 'Offline mode keeps the last synced dashboards available without a connection.'),
    content: { importance: 'normal', region: 'Global' },
  },
  {
    id: 'cnt_demo_news_sustainability', slug: 'sustainability-report', title: 'Our first sustainability report', category_code: 'news', daysAgo: 33,
    author_name: 'Press Office', tags: ['company'], summary: 'Our data centers now run on 92 % renewable energy.',
    body: p('Our first sustainability report covers energy, hardware life cycles and travel.', 'Data centers we use run on 92 % renewable energy; we target 100 % by 2027.'),
    content: { importance: 'low', region: 'Global' },
  },
  {
    id: 'cnt_demo_news_pricing', slug: 'pricing-update', title: 'Simpler pricing for small teams', category_code: 'news', daysAgo: 40,
    author_name: 'Product Team', tags: ['product'], summary: 'A free tier for up to five users, and one flat price above that.',
    body: p('From next month, teams of up to five users use Aurora for free.', 'Larger teams pay one flat price per user, with every feature included.'),
    content: { importance: 'high', event_date: '2025-05-01', region: 'Global' },
  },
  {
    id: 'cnt_demo_news_acquisition', slug: 'acquisition-streamlet', title: 'Example Corp acquires Streamlet', category_code: 'news', daysAgo: 47,
    author_name: 'Investor Relations', tags: ['company'], summary: 'Streamlet\'s event streaming technology joins the Aurora platform.',
    body: p('We signed an agreement to acquire Streamlet, a maker of event streaming software.', 'Streamlet customers keep their contracts; the products merge over the coming year.'),
    content: { importance: 'high', region: 'Europe' },
  },
  {
    id: 'cnt_demo_news_webinar', slug: 'webinar-forecasting', title: 'Webinar: forecasting without a data science team', category_code: 'news', daysAgo: 55,
    author_name: 'Events Team', tags: ['event', 'product'], summary: 'A one-hour live session with Q&A.',
    body: p('Learn how product and sales teams build reliable forecasts with Aurora in a one-hour live webinar.'),
    content: { importance: 'low', event_date: '2025-04-22', region: 'North America' },
  },
  {
    id: 'cnt_demo_news_status_page', slug: 'new-status-page', title: 'A new public status page', category_code: 'news', daysAgo: 63,
    author_name: 'Site Reliability', tags: ['engineering'], summary: 'Live availability per region, incident history and subscriptions.',
    body: p('Our new status page shows live availability per region and a full incident history.', 'Subscribe by e-mail or webhook to hear about incidents first.'),
    content: { importance: 'normal', region: 'Global' },
  },
  {
    id: 'cnt_demo_news_tokyo_datacenter', slug: 'tokyo-region', title: 'New Tokyo region for data residency', category_code: 'news', daysAgo: 70,
    author_name: 'Product Team', tags: ['product', 'security'], summary: 'Customers in Japan can keep their data in Japan.',
    body: p('Aurora now runs in a Tokyo region. Customers can choose to keep all data, backups included, in Japan.'),
    content: { importance: 'normal', region: 'Japan' },
  },
]

/** English blog posts with HTML bodies. */
export const DEMO_BLOG: DemoItem[] = [
  {
    id: 'cnt_demo_blog_keyset_pagination', slug: 'keyset-pagination', title: 'Why we switched to keyset pagination', category_code: 'blog', daysAgo: 1,
    author_name: 'Mina Park', tags: ['engineering'], summary: 'Offsets get slower on every page. Cursors do not.',
    body: '<h2>The problem with OFFSET</h2>\n<p>With <code>OFFSET 10000</code> the database still reads ten thousand rows and throws them away.</p>\n<h2>Keyset cursors</h2>\n<p>A cursor remembers the last sort value and id, so page 500 costs the same as page 1.</p>\n<pre><code>WHERE (published_at, id) &lt; (?, ?)</code></pre>',
    content: { reading_minutes: 7, featured: true },
  },
  {
    id: 'cnt_demo_blog_design_tokens', slug: 'design-tokens', title: 'Design tokens across web and mobile', category_code: 'blog', daysAgo: 4,
    author_name: 'Kenji Watanabe', tags: ['design'], summary: 'One source of truth for colours, spacing and type.',
    body: '<p>We keep colours, spacing and typography in one token file and generate CSS, Swift and Kotlin from it.</p>\n<ul><li>Fewer mismatches between platforms</li><li>Dark mode for free</li><li>Reviews focus on intent, not hex codes</li></ul>',
    content: { reading_minutes: 5, featured: false },
  },
  {
    id: 'cnt_demo_blog_oncall', slug: 'humane-on-call', title: 'A humane on-call rotation', category_code: 'blog', daysAgo: 8,
    author_name: 'Priya Raman', tags: ['engineering'], summary: 'Follow-the-sun, paid on-call and blameless reviews.',
    body: '<p>Nobody does their best work at 3 a.m. Our rotation follows the sun across Tokyo, Berlin and Toronto.</p>\n<blockquote>Every page is a bug in our alerting until proven otherwise.</blockquote>',
    content: { reading_minutes: 6, featured: true },
  },
  {
    id: 'cnt_demo_blog_full_text_search', slug: 'japanese-full-text-search', title: 'Full-text search for Japanese without a dictionary', category_code: 'blog', daysAgo: 12,
    author_name: 'Mina Park', tags: ['engineering', 'product'], summary: 'Bigrams find words inside text written without spaces.',
    body: '<p>Japanese is written without spaces, so splitting on whitespace finds nothing. Character bigrams let a search for <em>移転</em> find <em>オフィス移転のお知らせ</em>.</p>',
    content: { reading_minutes: 9, featured: true },
  },
  {
    id: 'cnt_demo_blog_accessibility', slug: 'accessibility-audit', title: 'What our accessibility audit taught us', category_code: 'blog', daysAgo: 16,
    author_name: 'Kenji Watanabe', tags: ['design'], summary: 'Focus order, contrast and charts that screen readers can read.',
    body: '<p>An external audit found 41 issues. Most were about focus order and colour contrast; the hardest were charts.</p>\n<p>Every Aurora chart now has a data table alternative.</p>',
    content: { reading_minutes: 4 },
  },
  {
    id: 'cnt_demo_blog_sqlite_wal', slug: 'sqlite-in-production', title: 'SQLite in production: lessons from a year of WAL mode', category_code: 'blog', daysAgo: 20,
    author_name: 'Tom Fischer', tags: ['engineering'], summary: 'One writer, many readers, and backups that just work.',
    body: '<p>WAL mode lets readers continue while a writer commits. Keep transactions short and checkpoints regular.</p>\n<ol><li>Set a busy timeout</li><li>Use one writer connection</li><li>Back up with the online backup API</li></ol>',
    content: { reading_minutes: 8, featured: false },
  },
  {
    id: 'cnt_demo_blog_api_keys', slug: 'api-key-hygiene', title: 'API key hygiene for integrations', category_code: 'blog', daysAgo: 24,
    author_name: 'Priya Raman', tags: ['security'], summary: 'Least privilege, server-side only, and rotation without downtime.',
    body: '<p>Give each integration its own key with the fewest permissions it needs, keep keys on servers only, and rotate by creating a new key before deleting the old one.</p>',
    content: { reading_minutes: 3, featured: true },
  },
  {
    id: 'cnt_demo_blog_typescript', slug: 'strict-typescript', title: 'Moving a large codebase to strict TypeScript', category_code: 'blog', daysAgo: 30,
    author_name: 'Tom Fischer', tags: ['engineering'], summary: 'Four months, 2,300 files and zero big-bang rewrites.',
    body: '<p>We turned on <code>strict</code> one directory at a time, with a burn-down chart on the team dashboard.</p>',
    content: { reading_minutes: 10 },
  },
  {
    id: 'cnt_demo_blog_color', slug: 'colour-in-dashboards', title: 'Colour in dashboards: less is more', category_code: 'blog', daysAgo: 36,
    author_name: 'Kenji Watanabe', tags: ['design', 'product'], summary: 'Use colour for meaning, not decoration.',
    body: '<p>A dashboard with twelve colours says nothing. We use one accent colour for what needs attention and grey for the rest.</p>',
    content: { reading_minutes: 4, featured: false },
  },
  {
    id: 'cnt_demo_blog_interns', slug: 'summer-interns', title: 'What our summer interns built', category_code: 'blog', daysAgo: 44,
    author_name: 'Aiko Suzuki', tags: ['company'], summary: 'Six interns, six features now in production.',
    body: '<p>From keyboard shortcuts to a query explainer, six interns shipped six features this summer.</p>',
    content: { reading_minutes: 5 },
  },
  {
    id: 'cnt_demo_blog_caching', slug: 'http-caching-for-apis', title: 'HTTP caching for authenticated APIs', category_code: 'blog', daysAgo: 52,
    author_name: 'Mina Park', tags: ['engineering', 'security'], summary: 'private, ETag and Vary: caching without leaking.',
    body: '<p>Responses to requests with an API key must never be stored by shared caches. <code>Cache-Control: private</code> with an <code>ETag</code> still saves bandwidth.</p>',
    content: { reading_minutes: 6, featured: true },
  },
  {
    id: 'cnt_demo_blog_remote', slug: 'remote-first', title: 'Three years of remote-first', category_code: 'blog', daysAgo: 60,
    author_name: 'Aiko Suzuki', tags: ['company'], summary: 'Writing things down is the whole trick.',
    body: '<p>Decisions live in documents, not meetings. Meetings are for the decisions documents cannot settle.</p>',
    content: { reading_minutes: 4 },
  },
  {
    id: 'cnt_demo_blog_observability', slug: 'observability-budget', title: 'An observability budget that fits', category_code: 'blog', daysAgo: 66,
    author_name: 'Priya Raman', tags: ['engineering'], summary: 'Sample traces, keep all errors, and delete logs nobody reads.',
    body: '<p>We cut our logging bill by 60 % by sampling successful traces, keeping every error and deleting log lines nobody had read in a year.</p>',
    content: { reading_minutes: 6 },
  },
  {
    id: 'cnt_demo_blog_onboarding', slug: 'onboarding-redesign', title: 'Redesigning onboarding in five weeks', category_code: 'blog', daysAgo: 71,
    author_name: 'Kenji Watanabe', tags: ['design', 'product'], summary: 'From twelve steps to three, and activation up by a third.',
    body: '<p>Our old onboarding asked twelve questions before showing anything useful. The new one asks three and shows a sample dashboard right away.</p>',
    content: { reading_minutes: 5, featured: true },
  },
  {
    id: 'cnt_demo_blog_postmortem', slug: 'postmortem-march-outage', title: 'Postmortem: the March 14 outage', category_code: 'blog', daysAgo: 78,
    author_name: 'Tom Fischer', tags: ['engineering', 'security'], summary: 'A certificate expired on a proxy nobody remembered.',
    body: '<p>For 47 minutes, API requests in Europe failed because a certificate expired on an internal proxy.</p>\n<p>We now monitor every certificate we serve, including internal ones.</p>',
    content: { reading_minutes: 7 },
  },

]
