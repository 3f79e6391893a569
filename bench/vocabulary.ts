import { Prng } from './prng.ts'

/*
 * Word lists for the generated articles: real common words first (they get the high Zipf
 * ranks), then a long tail of generated names (products, places, people), as real corporate
 * news and blog text has. Generated deterministically.
 */

const ENGLISH_COMMON = `the of and to in for is on that with as by at from this we our will be are it an new
company service customers team office product release update support announcement system data cloud
platform security market business design network customer project partner solution event online
management information research development technology report quality software digital energy
global local community program performance experience growth results industry financial services
process application access price launch feature features mobile users staff health future meeting
city building quarter annual year month week today tomorrow time schedule plan policy strategy
campaign store shop delivery order orders shipping payment account members member public private
open closed maintenance notice important please contact details information learn more about
learning training seminar webinar conference session speaker keynote workshop registration free
improved faster simple secure reliable flexible modern smart efficient sustainable green safe
japan tokyo osaka europe america asia international national regional headquarters branch
engineer engineers developer developers designer manager director president officer board
interview story stories case study success challenge challenges solution solutions approach
integration migration upgrade version feature release notes changelog documentation guide
recipe travel sports music art culture food coffee tea season summer winter spring autumn
hiring career careers job jobs position benefits culture values mission vision goal goals
revenue profit earnings dividend shareholders investors forecast outlook statement results
partnership agreement acquisition merger investment funding startup enterprise small medium
analysis analytics dashboard insight insights metrics measurement model models machine intelligence
artificial automation robot robots sensor sensors device devices hardware chip battery vehicle
electric charging station stations solar wind power grid water waste recycling carbon emissions
customer experience satisfaction survey feedback review reviews rating ratings award awards prize
winner winners finalist nominated recognized certified certification standard standards compliance`
  .split(/\s+/)
  .filter((word) => word !== '')

const JAPANESE_COMMON = `お知らせ 発表 新製品 サービス 開始 提供 会社 株式会社 本社 移転 オフィス 事業 展開 お客様 皆様 ご案内
開催 セミナー イベント 参加 募集 採用 社員 技術 開発 研究 導入 事例 紹介 記事 最新 情報 更新 予定
決算 業績 売上 利益 株主 投資家 報告 資料 公開 配信 提携 協業 合意 締結 買収 設立 子会社 支店
東京 大阪 名古屋 福岡 札幌 横浜 京都 神戸 地域 全国 海外 国内 市場 顧客 満足 品質 向上 改善 対応
システム メンテナンス 障害 復旧 停止 一時 休業 営業 時間 変更 料金 価格 改定 キャンペーン 実施
クラウド データ 分析 人工知能 自動化 効率 安全 安心 環境 エネルギー 脱炭素 持続可能 社会 貢献 地域
スポーツ 旅行 料理 音楽 文化 季節 春 夏 秋 冬 健康 生活 暮らし 家族 子供 教育 学校 大学 学生
インタビュー 対談 特集 連載 コラム 解説 入門 基礎 応用 実践 活用 方法 ポイント 注意 確認 手続き
受付 申込 締切 期間 日程 会場 オンライン 無料 有料 会員 登録 限定 特典 プレゼント 抽選 当選 発送`
  .split(/\s+/)
  .filter((word) => word !== '')

const LATIN_SYLLABLES = 'ka ri to mo na se lu vi ra den kor mel tan ar is on el ur qua zen bel sor fin gal har lin mar nor pel ros val wen yor'.split(' ')
const KATAKANA = 'アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワンガギグゲゴザジズゼゾダデドバビブベボパピプペポ'.split('')
const KANJI = '山川田中村本木林森石井上下東西南北光明新和平安大小高長明星海空風雲花春夏秋冬金銀銅水火土日月松竹梅桜岡島原野沢橋宮寺'.split('')

/** The two languages of the data set, each with its words ordered from most to least common. */
export interface Vocabulary {
  english: string[]
  japanese: string[]
}

/** Builds the vocabulary: the common words, then `tail` generated words per language. */
export function buildVocabulary(seed: number, tail: number): Vocabulary {
  const prng = new Prng(seed)
  const english = uniqueWords(ENGLISH_COMMON, tail, () => {
    const count = prng.int(2, 4)
    let word = ''
    for (let i = 0; i < count; i++) word += prng.pick(LATIN_SYLLABLES)
    return word
  })
  const japanese = uniqueWords(JAPANESE_COMMON, tail, () => {
    // Half katakana names (products), half two- or three-kanji names (places, people).
    if (prng.chance(0.5)) {
      let word = ''
      const count = prng.int(3, 5)
      for (let i = 0; i < count; i++) word += prng.pick(KATAKANA)
      return word
    }
    let word = ''
    const count = prng.int(2, 3)
    for (let i = 0; i < count; i++) word += prng.pick(KANJI)
    return word
  })
  return { english, japanese }
}

function uniqueWords(common: readonly string[], tail: number, make: () => string): string[] {
  const seen = new Set(common)
  const words = [...seen]
  const target = words.length + tail
  for (let guard = 0; words.length < target && guard < tail * 20; guard++) {
    const word = make()
    if (seen.has(word)) continue
    seen.add(word)
    words.push(word)
  }
  return words
}
