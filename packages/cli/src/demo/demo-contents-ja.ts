import type { DemoItem } from './demo-contents-en.ts'

const p = (...paragraphs: string[]) => paragraphs.map((text) => `<p>${text}</p>`).join('\n')

/** Japanese announcements (お知らせ). */
export const DEMO_OSHIRASE: DemoItem[] = [
  {
    id: 'cnt_demo_ja_office_move', slug: 'office-move-2025', title: 'オフィス移転のお知らせ', category_code: 'oshirase', daysAgo: 3,
    author_name: '総務部', tags: ['会社情報'], summary: '本社オフィスを東京都千代田区丸の内へ移転いたします。',
    body: p('このたび、業務拡大に伴い本社オフィスを下記へ移転することとなりました。', '新住所：東京都千代田区丸の内1-1-1 丸の内ビル20階', '移転に伴い電話番号も変更となります。今後ともよろしくお願い申し上げます。'),
    content: { juyodo: '重要', kaisaibi: '2025-09-16' },
  },
  {
    id: 'cnt_demo_ja_aurora_launch', slug: 'aurora-launch-ja', title: '新製品「Aurora」発表のお知らせ', category_code: 'oshirase', daysAgo: 2,
    author_name: '広報部', tags: ['製品'], summary: 'リアルタイム分析プラットフォーム「Aurora」を発表しました。',
    body: p('当社は本日、新製品となる分析プラットフォーム「Aurora」を発表いたしました。', 'ダッシュボードのリアルタイム更新と需要予測機能を備え、日本国内でも本日より提供を開始します。'),
    content: { juyodo: '重要', kaisaibi: '2025-06-20' },
  },
  {
    id: 'cnt_demo_ja_summer_holiday', slug: 'summer-holidays', title: '夏季休業のお知らせ', category_code: 'oshirase', daysAgo: 7,
    author_name: '総務部', tags: ['サポート'], summary: '8月13日から16日まで夏季休業とさせていただきます。',
    body: p('誠に勝手ながら、8月13日（水）から8月16日（土）まで夏季休業とさせていただきます。', '休業期間中のお問い合わせには、8月18日（月）以降に順次回答いたします。'),
    content: { juyodo: '通常', kaisaibi: '2025-08-13' },
  },
  {
    id: 'cnt_demo_ja_maintenance', slug: 'maintenance-notice', title: '定期メンテナンスのお知らせ', category_code: 'oshirase', daysAgo: 10,
    author_name: 'サポートセンター', tags: ['サポート'], summary: 'サービス停止を伴うメンテナンスを実施します。',
    body: p('下記日程にて定期メンテナンスを実施いたします。メンテナンス中は全サービスがご利用いただけません。', '日時：日曜日 午前2時〜午前5時'),
    content: { juyodo: '重要', kaisaibi: '2025-07-06' },
  },
  {
    id: 'cnt_demo_ja_seminar', slug: 'seminar-tokyo', title: 'データ活用セミナー開催のお知らせ', category_code: 'oshirase', daysAgo: 14,
    author_name: 'イベント事務局', tags: ['イベント'], summary: '東京会場とオンラインで無料セミナーを開催します。',
    body: p('「明日から使えるデータ活用」をテーマに、無料セミナーを開催いたします。', '会場：東京国際フォーラム（オンライン同時配信あり）'),
    content: { juyodo: '通常', kaisaibi: '2025-10-08' },
  },
  {
    id: 'cnt_demo_ja_price', slug: 'price-revision', title: '料金改定のお知らせ', category_code: 'oshirase', daysAgo: 19,
    author_name: '営業部', tags: ['製品'], summary: '5名以下のチームは無料でご利用いただけるようになります。',
    body: p('来月より料金体系を改定いたします。5名以下のチームは無料でご利用いただけます。', '既存のご契約は契約期間満了まで現行の料金が適用されます。'),
    content: { juyodo: '重要' },
  },
  {
    id: 'cnt_demo_ja_phone', slug: 'support-phone-hours', title: 'サポート窓口の受付時間変更について', category_code: 'oshirase', daysAgo: 23,
    author_name: 'サポートセンター', tags: ['サポート'], summary: '電話サポートの受付時間を平日9時〜18時に変更します。',
    body: p('電話サポートの受付時間を平日9時から18時に変更いたします。メールでのお問い合わせは24時間受け付けております。'),
    content: { juyodo: '通常' },
  },
  {
    id: 'cnt_demo_ja_osaka', slug: 'osaka-office-ja', title: '大阪オフィス開設のお知らせ', category_code: 'oshirase', daysAgo: 9,
    author_name: '総務部', tags: ['会社情報'], summary: '関西のお客様へのサポート体制を強化します。',
    body: p('大阪市北区梅田に大阪オフィスを開設いたしました。', '関西地区のお客様へのサポート体制をさらに強化してまいります。'),
    content: { juyodo: '通常', kaisaibi: '2025-09-01' },
  },
  {
    id: 'cnt_demo_ja_iso', slug: 'iso-certification-ja', title: 'ISO/IEC 27001認証取得のお知らせ', category_code: 'oshirase', daysAgo: 13,
    author_name: '情報セキュリティ委員会', tags: ['会社情報'], summary: '情報セキュリティマネジメントシステムの国際規格認証を取得しました。',
    body: p('当社は、情報セキュリティマネジメントシステムの国際規格であるISO/IEC 27001の認証を取得いたしました。'),
    content: { juyodo: '通常' },
  },
  {
    id: 'cnt_demo_ja_mobile', slug: 'mobile-app-ja', title: 'スマートフォンアプリ提供開始のお知らせ', category_code: 'oshirase', daysAgo: 26,
    author_name: '広報部', tags: ['製品'], summary: 'iOS・Android向けアプリの提供を開始しました。',
    body: p('Auroraのスマートフォンアプリ（iOS・Android）の提供を開始いたしました。外出先でもダッシュボードやアラートをご確認いただけます。'),
    content: { juyodo: '通常' },
  },
  {
    id: 'cnt_demo_ja_year_end', slug: 'year-end-holidays', title: '年末年始休業のお知らせ', category_code: 'oshirase', daysAgo: 58,
    author_name: '総務部', tags: ['サポート'], summary: '12月29日から1月3日まで休業いたします。',
    body: p('誠に勝手ながら、12月29日から1月3日まで年末年始休業とさせていただきます。'),
    content: { juyodo: '通常', kaisaibi: '2024-12-29' },
  },
  {
    id: 'cnt_demo_ja_phishing', slug: 'phishing-warning', title: '当社を装った不審なメールにご注意ください', category_code: 'oshirase', daysAgo: 28,
    author_name: '情報セキュリティ委員会', tags: ['サポート'], summary: '当社名をかたるフィッシングメールが確認されています。',
    body: p('当社の名称をかたり、パスワードの入力を求める不審なメールが確認されています。', '当社がメールでパスワードをお尋ねすることはありません。'),
    content: { juyodo: '重要' },
  },
  {
    id: 'cnt_demo_ja_tokyo_region', slug: 'tokyo-region-ja', title: '東京リージョン提供開始のお知らせ', category_code: 'oshirase', daysAgo: 70,
    author_name: '広報部', tags: ['製品'], summary: 'データを国内に保管できる東京リージョンを開設しました。',
    body: p('Auroraの東京リージョンを開設いたしました。バックアップを含むすべてのデータを国内で保管できます。'),
    content: { juyodo: '通常' },
  },
  {
    id: 'cnt_demo_ja_award', slug: 'design-award', title: 'グッドデザイン賞受賞のお知らせ', category_code: 'oshirase', daysAgo: 35,
    author_name: '広報部', tags: ['会社情報', '製品'], summary: 'Auroraのダッシュボードが受賞しました。',
    body: p('このたび、Auroraのダッシュボード画面がグッドデザイン賞を受賞いたしました。'),
    content: { juyodo: '通常' },
  },
  {
    id: 'cnt_demo_ja_webinar', slug: 'webinar-ja', title: 'オンライン説明会のご案内', category_code: 'oshirase', daysAgo: 42,
    author_name: 'イベント事務局', tags: ['イベント', '製品'], summary: '新機能をデモを交えてご紹介します。',
    body: p('Auroraの新機能をデモを交えてご紹介するオンライン説明会を開催いたします。参加費は無料です。'),
    content: { juyodo: '通常', kaisaibi: '2025-11-05' },
  },
  {
    id: 'cnt_demo_ja_invoice', slug: 'invoice-system', title: 'インボイス制度への対応について', category_code: 'oshirase', daysAgo: 90,
    author_name: '経理部', tags: ['サポート'], summary: '適格請求書の発行に対応しました。',
    body: p('当社は適格請求書発行事業者として登録しております。請求書には登録番号を記載しております。'),
    content: { juyodo: '通常' },
  },
]

/** Unpublished items: drafts (never visible) and one scheduled item (visible once its time comes). */
export const DEMO_UNPUBLISHED: (DemoItem & { scheduledInDays?: number })[] = [
  {
    id: 'cnt_demo_draft_roadmap', slug: 'roadmap-2026', title: 'Our 2026 product roadmap (draft)', category_code: 'news', daysAgo: 0, status: 'draft',
    author_name: 'Product Team', tags: ['product'], summary: 'Not announced yet.', body: p('Draft: the roadmap for next year.'),
    content: { importance: 'high' },
  },
  {
    id: 'cnt_demo_draft_blog_rust', slug: 'rust-in-the-ingest-path', title: 'Rust in our ingest path (draft)', category_code: 'blog', daysAgo: 0, status: 'draft',
    author_name: 'Tom Fischer', tags: ['engineering'], summary: 'Work in progress.', body: p('Draft.'),
    content: { reading_minutes: 12 },
  },
  {
    id: 'cnt_demo_draft_ja_recruit', slug: 'recruitment-2026', title: '2026年度 新卒採用のお知らせ（下書き）', category_code: 'oshirase', daysAgo: 0, status: 'draft',
    author_name: '人事部', tags: ['会社情報'], summary: '公開前の下書きです。', body: p('下書き'),
    content: { juyodo: '通常' },
  },
  {
    id: 'cnt_demo_scheduled_ja_anniversary', slug: 'tenth-anniversary', title: '創立10周年のお知らせ', category_code: 'oshirase', daysAgo: 0, status: 'published', scheduledInDays: 3,
    author_name: '広報部', tags: ['会社情報', 'イベント'], summary: '公開予約済み：3日後に自動で公開されます。',
    body: p('おかげさまで当社は創立10周年を迎えます。'),
    content: { juyodo: '重要' },
  },
  {
    id: 'cnt_demo_archive_old', slug: 'old-careers-page', title: 'Careers (retired page)', category_code: 'archive', daysAgo: 400, status: 'published',
    author_name: 'Web Team', tags: [], summary: 'In an inactive category: never visible.', body: p('Retired.'),
    content: {},
  },
]
