"""The closed word lists of the open-domain Chinese rules: name endings that say what a name is (…有限公司
a company, …大学 a university, …市 a city), titles that stand next to a person's name (董事长, 行长),
surnames, countries and provinces, the nouns that say what a quoted name is (平台 software, 药物 a
medicine), and the stop list of words that are never an entity on their own.

Each class is written as alternatives ('Company|Organization'): the first class the schema has wins,
so the same lists serve the open-domain schema, the medicine one and a user's own.
"""

from __future__ import annotations

import re

# Endings of organisation names, longest first where one ends another (股份有限公司 before 公司).
ORG_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("股份有限公司", "Company|Organization"), ("有限责任公司", "Company|Organization"),
    ("集团有限公司", "Company|Organization"), ("有限公司", "Company|Organization"), ("控股集团",
    "Company|Organization"),
    ("集团", "Company|Organization"), ("公司", "Company|Organization"), ("银行", "Company|Organization"),
    ("出版社", "Company|Organization"), ("交易所", "Organization"), ("事务所", "Company|Organization"),
    ("律师事务所", "Company|Organization"),  # 律师 is a person's title elsewhere, a kind of firm here
    ("电视台", "Organization"), ("报社", "Organization"), ("通讯社", "Organization"), ("新闻社", "Organization"),
    ("大学", "EducationalInstitution|Organization"), ("学院", "EducationalInstitution|Organization"),
    ("中学", "EducationalInstitution|Organization"), ("小学", "EducationalInstitution|Organization"),
    ("学校", "EducationalInstitution|Organization"), ("书院", "EducationalInstitution|Organization"),
    ("学堂", "EducationalInstitution|Organization"), ("大学堂", "EducationalInstitution|Organization"),
    ("研究院", "Organization"), ("研究所", "Organization"), ("研究中心", "Organization"), ("实验室", "Organization"),
    ("科学院", "Organization"), ("工程院", "Organization"), ("设计院", "Organization"),
    ("协会", "Organization"), ("学会", "Organization"), ("基金会", "Organization"), ("联合会", "Organization"),
    ("商会", "Organization"), ("委员会", "Organization"), ("组织", "Organization"), ("联盟", "Organization"),
    ("博物院", "Organization"), ("博物馆", "Organization"), ("图书馆", "Organization"), ("俱乐部", "Organization"),
    ("美术馆", "Building|Organization"), ("纪念馆", "Building|Organization"), ("艺术馆", "Building|Organization"),
    ("株式会社", "Company|Organization"),  # a Japanese or Korean company's legal form (大邱电装株式会社)
    # a partnership, as reports name the funds among a company's holders (…投资合伙企业（有限合伙）)
    ("合伙企业", "Company|Organization"),
    ("工作室", "Company|Organization"), ("厂", "Company|Organization"), ("指挥部", "GovernmentAgency|Organization"),
    ("医院", "Hospital|Organization"),
    # a body's unit named by what it keeps or does (同济大学档案馆, 中国科学院华南植物园, 紫金山天文台盱眙观测站) and an
    # alumni body (华南理工大学北京校友会): jieba's one token, so the ending is the whole word
    ("档案馆", "Organization"), ("植物园", "Organization"), ("天文台", "Organization"), ("观测站", "Organization"),
    ("校友会", "Organization"),
    ("管理局", "GovernmentAgency|Organization"), ("监督管理局", "GovernmentAgency|Organization"),
    ("管理总局", "GovernmentAgency|Organization"), ("总局", "GovernmentAgency|Organization"),
    ("分局", "GovernmentAgency|Organization"),  # 宁波市公安局鄞州区分局: a bureau's district office
    ("局", "GovernmentAgency|Organization"), ("厅", "GovernmentAgency|Organization"),
    ("部", "GovernmentAgency|Organization"), ("署", "GovernmentAgency|Organization"),
    ("人民政府", "GovernmentAgency|Organization"), ("政府", "GovernmentAgency|Organization"),
    ("国务院", "GovernmentAgency|Organization"), ("法院", "GovernmentAgency|Organization"),
    ("检察院", "GovernmentAgency|Organization"), ("新华社", "Organization"),
)
# A single-character ending (局, 部, 厅, 署) makes an organisation only after a name this long: 教育部,
# 商务部 yes; 内部, 南部, 总部, 全部 are not organisations (see ORG_STOP).
SHORT_SUFFIX_MIN = 2
# Words in a name that make the whole a government body (河南省人民政府国有资产监督管理委员会).
GOVERNMENT_WORDS = ("人民政府", "国务院", "国家", "省委", "市委", "监督管理", "人民代表大会")
# Organisation-like words that name a kind, never one organisation.
ORG_STOP = frozenset((
    "主要子公司 重要子公司 其他子公司 境外子公司 境内子公司 下属子公司 参股公司 联营公司 合营公司 目标公司 标的公司 "
    "关联公司 合资公司 "
    "公司 本公司 该公司 我公司 子公司 分公司 母公司 总公司 控股公司 全资子公司 控股子公司 上市公司 航空公司 "
    "集团 本集团 该集团 银行 商业银行 大学 学院 学校 中学 小学 高校 政府 人民政府 地方政府 组织 部门 委员会 "
    "研究院 研究所 实验室 协会 学会 医院 出版社 交易所 事务所 局 部 厅 署 总部 内部 外部 全部 南部 北部 东部 "
    "西部 中部 局部 干部 俱乐部 头部 底部 顶部 尾部 本部 各部 当局 格局 布局 结局 大局 全局 平局 开局 政局 "
    "开发部 管理部 业务部 财务部 销售部 市场部 技术部 人力资源部 董事会 监事会 股东大会 "
    "证券交易所 会计师事务所 律师事务所 研究中心 博物馆 图书馆 联盟 商会 基金会 联合会 管理局 监督管理局 "
    "科学院 工程院 设计院 电视台 通讯社 新闻社 报社 法院 检察院 研究院 新闻社 "
    "档案馆 植物园 天文台 观测站 校友会 合伙企业 "
    # the bodies of an event or a competition, named by what they do alone (评审委员会主席由P担任)
    "评审委员会 评选委员会 组织委员会 组委会 评委会 专家委员会 仲裁委员会"
).split())
# Descriptor nouns written between a name's place word and the name itself, or before a name in
# apposition (德国化工企业莱茵特种材料公司): the name starts after them.
DESCRIPTOR_ENDS = ("企业", "服务商", "供应商", "厂商", "制造商", "运营商", "开发商", "生产商", "经销商", "零售商",
                   "提供商", "巨头", "龙头", "品牌", "机构", "车企",
                   "药企", "房企", "险企", "名企", "平台")
# Words a name never starts with: they point at or qualify an organisation already named.
LEADING_NOISE = ("本", "该", "其", "我", "各", "全资", "控股", "旗下", "下属", "原", "现", "前", "新设", "报告期内",
                 "报告期", "期内", "当地", "有关", "相关", "各级",
                 # a declaration of the full name (鹤鸣酒业，全称四川鹤鸣酒业股份有限公司) and a period before a
                 # report's 公司 (本季度公司共销售…): neither opens a name
                 "全称", "全名", "季度", "年度", "半年度", "上半年", "下半年", "前三季度")

# Titles next to a person's name (董事长徐直军) or after an organisation (星河智能董事长); longest first.
EXECUTIVE_TITLES: tuple[str, ...] = (
    "董事会主席", "董事会副主席", "轮值董事长", "执行董事长", "联席董事长",
    "副董事长", "董事长", "首席执行官", "首席技术官", "首席财务官",
    "首席运营官",
    # the other chief officers companies name (a CISO, a CMO...): a person right after one holds the post
    "首席信息安全官", "首席信息官", "首席营销官", "首席产品官", "首席战略官", "首席投资官", "首席数据官", "首席风险官",
    "首席人力资源官", "首席法务官", "首席商务官", "首席医学官", "首席设计官", "首席品牌官",
    "首席科学家", "首席经济学家", "执行总裁", "高级副总裁", "副总裁", "总裁", "常务副总经理", "副总经理", "总经理",
    "执行董事", "独立董事", "董事", "监事会主席", "监事", "董事会秘书", "财务总监", "总监", "副行长", "行长", "副校长",
    "校长助理", "院长助理", "总裁助理", "总经理助理",
    "校长", "副院长", "院长", "所长", "副主席", "主席", "理事长", "秘书长", "会长", "社长", "总编辑", "主编", "局长",
    "副局长", "部长", "副部长", "厅长", "主任", "副主任", "党委书记", "书记", "创始人", "联合创始人", "合伙人",
    "主教练",
    # who runs a museum, a library or a memorial hall (博物馆馆长P)
    "馆长", "副馆长",
    "CEO", "CTO", "CFO", "COO", "总工程师", "负责人", "经理",
)
# Words jieba tags as verbs that company names are made of (无锡海川控股有限公司, 海川水处理设备有限公司).
ORG_NAME_WORDS = frozenset("控股 投资 发展 建设 处理 管理 服务 开发 咨询 贸易 制造 运营 租赁 检测 营销 传媒 保险 "
                           "置业 实业 工程 物流 储能 环保 能源 制药 经营 资产 科技 技术 信息 电子 网络 建筑 设计 "
                           "生产 创新 "
                           # the industries companies are named for (鼎盛医药, 东方电气), after the word
                           # a name starts with
                           "医药 药业 生物 医疗 航空 汽车 电气 机械 重工 光电 材料 化工 食品 乳业 酒业 钢铁 通信 "
                           "电力 新能源 半导体 智能 软件 船舶 航运 数科 文旅 地产 证券 纺织 家居 电器 出版 "
                           # what kind of machines a maker makes, adjectives to jieba (桂柳重型装备有限公司,
                           # 嵘川精密轴承股份有限公司): words of its name, not a description of it
                           "重型 精密".split())
# Phrases of company reports after which a name is a person's (实际控制人为孙建国、孙晓梅夫妇; 聘任李卫东为总经理).
# (实际控制人仍为 / 变更为 / 均为: a report restating or changing who controls the company names a person too)
PERSON_CUES: tuple[str, ...] = ("实际控制人为", "实际控制人是", "实际控制人仍为", "实际控制人变更为", "实际控制人均为",
                                "法定代表人为", "法定代表人是", "法定代表人",
                                "控股股东为",
                                "聘任", "聘请", "任命", "选举", "提名", "同意",
                                # 实际控制人柯英韬控制的企业 (after the longer cues above, which the regex tries
                                # first); 董事会委任P为 (Hong Kong's word for appointing); every report's statement
                                # 会计机构负责人（会计主管人员）P保证…: the person after the bracketed post
                                "实际控制人", "委任", "（会计主管人员）", "(会计主管人员)",
                                # a party that is a natural person (与自然人晁立诚签署, 由自然人卢静姝创办) and a
                                # relative named after the person they are kin to (其妻弟P任, 实际控制人X之弟P控制的)
                                "自然人", "之弟", "之兄", "之子", "之女", "之妻", "之夫", "妻弟", "妻兄", "其弟",
                                "其兄", "其子", "其女")
# What follows a company's short name where it opens a clause of a report (2023年，海川环境实现营业收入…;
# 北辰精密与德国西门子公司签署…): the clause's subject is then the company (open_mentions._org_as_subject).
SUBJECT_CUES = (r"实现(?:营业|归属|净利|销售|销量|营收|利润|收入|产量|交付|[\u4e00-\u9fff]{1,4}?(?:产量|销量|收入))|"
                r"以[\d约]|"
                r"与[^，。；]{2,24}?(?:签署|签订|达成|合作|联合成立|共同成立|共建)|"
                r"发布|推出|发射|荣获|收购|新设|设立|共有|拥有在职|自主研发|"
                # 召开第五届董事会第十二次会议, 拥有…等五家控股子公司: what only a company (or its board) does
                r"由[^，。；]{2,30}?(?:于\d{4}年)?(?:创办|创立|创建)|召开[^，。；]{0,12}?(?:董事会|监事会|股东大会|股东会|发布会)|拥有[^，。；]{2,60}?(?:子公司|分公司)|研发投入|董事会|董事长|总经理|总裁|的控股股东|宣布|"
                r"的实际控制人|的主要子公司|的全资子公司|的控股子公司|总部位于|总部设在|主要从事|主营业务|成立于|"
                r"在职员工|员工总数|营业总?收入|净利润|在[^，。；]{1,10}?(?:发布|推出|设立|举办|召开|上市|开设|发射|投产|开工|建成)|"
                r"第一大股东|控股股东为|完成对|完成了对|第[一二三四五六七八九十\d]{1,3}届(?:董事会|监事会)|"
                r"的(?:董事长|副董事长|总经理|副总经理|总裁|副总裁|首席|董事会秘书|财务总监|创始人)|"
                r"拥有(?:全资|控股)?子公司|旗下(?:拥有|有)|以[^，。；]{0,8}?\d|"
                # what a report section or a news item says its company did, under a short name it declared
                # elsewhere or never (岚峰旅游主要经营…, 锦屏药业同时公告, 汇溪环境披露, 璇玑导航控股股东X,
                # 幻弦网络以著作权侵权为由起诉, 牧康生物共取得新兽药注册证书, 澄源气体合并报表实现…)
                r"主要经营|(?:同时|发布|再次)?公告|披露|控股股东|以[^，。；]{2,20}?为由|共(?:取得|获得)|"
                r"合并报表实现")
# What may stand between a short name and the cue after it: an adverb or a time (鼎盛医药先后收购…, 青岚酒业于2021年
# 在…上市, 北辰重工近日发布…).
SUBJECT_GAP = (r"(?:先后|近日|日前|正式|已经|已|将|拟|再次|首次|也|还|均|共同|分别|随后|此前|目前|今年|去年|同日|当日|"
               r"于\d{4}年(?:\d{1,2}月(?:\d{1,2}日)?)?|于\d{1,2}月\d{1,2}日|"
               # a period written right after the name (桂垣糖业2025年第一季度实现营业总收入…)
               r"\d{4}年(?:度|第[一二三四]季度|前三季度|[上下]半年|\d{1,2}月(?:\d{1,2}日)?)?)?")
# How news and reports say where a company is listed, before its name (深交所主板上市公司锦屏药业, 创业板公司X,
# 港股上市公司X): a description of the company named next, never a company of its own. The exchanges' short names in
# it are bodies (深交所, 上交所).
LISTED_AS = (r"(?:(?:深交所|上交所|北交所|港交所|联交所|沪市|深市|港股|美股|A股|H股|B股)"
             r"(?:主板|创业板|科创板|中小板)?|主板|创业板|科创板|中小板|新三板)(?:上市)?公司")
EXCHANGE_SHORT_NAMES = ("深交所", "上交所", "北交所", "港交所", "联交所")
# Words a clause-opening run must not be (they open report clauses without naming a company).
SUBJECT_STOP = ("公司", "本公司", "该公司", "集团", "本集团", "双方", "我们", "其中", "同时", "此外", "全年",
                "报告期", "本期", "上半年", "下半年", "前三季度", "第三季度", "单季", "今年", "去年", "上年", "同期",
                "营业", "主营", "归属", "子公司", "董事会", "股东", "员工", "研发", "合计", "累计", "其他")
# Titles that say only what a person is (作家周慕白, 教授), no employer.
PERSON_TITLES: tuple[str, ...] = (
    "作家", "诗人", "翻译家", "科学家", "数学家", "物理学家", "化学家", "经济学家", "历史学家", "哲学家", "画家",
    "音乐家", "作曲家", "歌手", "演员", "导演", "主演", "教授", "副教授", "研究员", "副研究员", "研究馆员", "馆员",
    "讲师", "院士", "工程师", "记者",
    "律师", "医生", "妻子", "丈夫", "配偶", "研究生", "博士生", "硕士生",
    "先生", "女士", "博士", "总统", "总理", "首相", "国王", "女王", "市长", "省长", "县长", "区长", "州长", "委员",
    "代表", "运动员", "教练",
    "选手",
    "建筑师", "设计师",
    # who a person was at a school, said right before the name (大学同学P, 美术学院毕业生P): no post held there
    "毕业生", "同学", "专家",
    # an alumnus said before the name (2005届校友P, X大学校友P和Q) and a film's or a series' writer (编剧为P)
    "校友", "编剧",
)
# Words after a name that show it is a person's: 李明远表示, 王蒙山出生于...
PERSON_VERBS = ("表示", "指出", "认为", "说", "称", "介绍", "强调", "透露", "出席", "出生", "生于", "毕业", "担任",
                "出任",
                "现任", "曾任", "创办", "创立", "著有", "去世", "逝世", "获得", "荣获", "创作", "撰写", "执导", "主演",
                "编著", "接任", "继任", "当选", "加入", "辞去", "辞任", "接替", "就读", "加盟", "正式加盟",
                "正式加入",
                # 董事长司徒衍持有该公司70%的股权 (jieba: 司徒 | 衍, a verb): a report's holder after a title
                "持有", "直接持有", "间接持有", "合计持有")

# Single-character surnames (the commonest, covering most of the population) and compound ones.
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
    "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施"
    "文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷"
    "盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷"
    "晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
    "冼阎谌蔺冀"
    # (rare surnames of the Hundred Family Surnames whose characters open almost no ordinary word: 庹清扬, 郗明澈)
    "庹郗禚笪厍鄢眭佴仉谯雒綦"
    # (more of the list new writers' reports used: 储, 揭, 荆, 栗, 邸, 练, 伏 open few ordinary words as jieba
    # cuts them)
    "储揭荆栗邸练伏"
    # (less frequent surnames that hardly open an ordinary word: 杭既白, 赖宗翰)
    "赖洪杭郁奚钮狄贝束邰屠胥逄郦濮扈茹庾匡阙晁阚鞠竺逯桓亓芮粟雍糜"
    # (the other surnames of the Hundred Family Surnames that jieba's own dictionary tags as a person's name (nr)
    # and lists as a rare word, under 1,000: 汲朝晖, 訾晓帆, 荀嘉树, and the common 萧 and 傅 it had missed; not 慕, 沃
    # and 戈, which open transliterated names: 慕尼黑, 沃尔玛, 戈尔韦)
    "昌凤酆廉傅萧禹昝裘贲嵇荀於惠羿汲邴隗宓蓬钭厉戎郜蓟宿苍莘璩郏宦慎禄殳蔚訾毋乜巢蒯益")
COMPOUND_SURNAMES = frozenset("欧阳 司马 诸葛 上官 东方 皇甫 尉迟 公孙 慕容 长孙 宇文 司徒 夏侯 令狐 端木 轩辕 "
                              # the rarer compound surnames, none of them an ordinary word (钟离芸, 澹台明, 淳于朗)
                              "钟离 澹台 公冶 宗政 淳于 申屠 闻人 万俟 呼延 赫连 拓跋 左丘 闾丘 鲜于 "
                              "颛孙 亓官 公良 漆雕 乐正 壤驷 巫马 梁丘 微生 羊舌".split())

COUNTRIES = frozenset((
    "中国 美国 英国 法国 德国 日本 韩国 朝鲜 俄罗斯 意大利 西班牙 葡萄牙 荷兰 比利时 瑞士 瑞典 挪威 丹麦 芬兰 冰岛 "
    "奥地利 波兰 捷克 匈牙利 希腊 土耳其 乌克兰 爱尔兰 加拿大 墨西哥 巴西 阿根廷 智利 秘鲁 哥伦比亚 澳大利亚 新西兰 "
    "印度 巴基斯坦 孟加拉国 新加坡 马来西亚 泰国 越南 印度尼西亚 印尼 菲律宾 缅甸 柬埔寨 老挝 蒙古 哈萨克斯坦 "
    "伊朗 伊拉克 以色列 沙特阿拉伯 沙特 阿联酋 卡塔尔 埃及 南非 尼日利亚 肯尼亚 埃塞俄比亚 摩洛哥 阿尔及利亚 "
    # more of Europe, Central and South Asia, Africa and the Americas (约旦, 加纳 and 苏丹 are also ordinary words, and
    # are left out)
    "塞尔维亚 罗马尼亚 保加利亚 克罗地亚 斯洛伐克 斯洛文尼亚 立陶宛 拉脱维亚 爱沙尼亚 白俄罗斯 卢森堡 "
    "乌兹别克斯坦 吉尔吉斯斯坦 塔吉克斯坦 土库曼斯坦 阿塞拜疆 格鲁吉亚 亚美尼亚 斯里兰卡 尼泊尔 文莱 黎巴嫩 "
    "科威特 巴林 坦桑尼亚 安哥拉 莫桑比克 赞比亚 津巴布韦 乌干达 卢旺达 突尼斯 利比亚 塞内加尔 古巴 委内瑞拉 "
    "厄瓜多尔 乌拉圭 巴拉圭 玻利维亚 巴拿马 哥斯达黎加"
).split())
PROVINCES = frozenset((
    "北京 天津 上海 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 广东 海南 四川 "
    "贵州 云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆 香港 澳门"
).split())
# Place-name endings -> class alternatives (longest first where one ends another).
PLACE_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("特别行政区", "AdministrativeRegion|GeographicLocation"), ("自治区", "AdministrativeRegion|GeographicLocation"),
    ("自治州", "AdministrativeRegion|GeographicLocation"), ("自治县", "AdministrativeRegion|GeographicLocation"),
    ("开发区", "GeographicLocation"), ("园区", "GeographicLocation"), ("新区",
    "AdministrativeRegion|GeographicLocation"),
    ("省", "AdministrativeRegion|GeographicLocation"), ("市", "City|GeographicLocation"),
    ("区", "AdministrativeRegion|GeographicLocation"), ("县", "AdministrativeRegion|GeographicLocation"),
    ("州", "City|GeographicLocation"), ("镇", "AdministrativeRegion|GeographicLocation"),
    ("乡", "AdministrativeRegion|GeographicLocation"), ("村", "AdministrativeRegion|GeographicLocation"),
    ("山", "NaturalFeature|GeographicLocation"), ("湖", "NaturalFeature|GeographicLocation"),
    ("江", "NaturalFeature|GeographicLocation"), ("河", "NaturalFeature|GeographicLocation"),
    ("海", "NaturalFeature|GeographicLocation"), ("岛", "NaturalFeature|GeographicLocation"),
    ("峰", "NaturalFeature|GeographicLocation"), ("湾", "NaturalFeature|GeographicLocation"),
)
# Place words that are ordinary words (上市 is tagged a place name in jieba's dictionary).
PLACE_STOP = frozenset((
    "上市 上云 中外 东西 南北 国内 国外 海外 境内 境外 全国 各地 本地 当地 外地 异地 中方 美方 外方 双方 全球 世界 "
    "国际 地区 城市 省份 市场 市区 郊区 城区 社区 小区 景区 园区 区域 开发区 新区 内地 大陆 中华 华夏 中原 西南 东南 "
    "西北 东北 江南 江北 长河 山河 江山 河山 湖海 天下 人间 四海 海内 沿海 上海市场 南方 北方 东方 西方 "
    "新建 新设 新增 加盟 "  # verbs of reports that jieba's dictionary also lists as places (新建县): 在印度新建两座工厂
    # Ordinary words jieba's dictionary tags ns, often and as often as a city (海洋 4068, 大桥 3288, 深度 1930, 回国
    # 1892; 杭州 2806): the sea, a bridge, a depth, going home, kinds of land and water, streets and gates, and words
    # that are no place at all. They are the words of 海洋生物学家, 跨江大桥, 探测深度, 回国创办, never a place's name;
    # one that is part of a name (中国海洋大学, 黔桂路桥) stays inside it. Names that are also places (朝阳, 中山, 太平,
    # 永安, 北海, 汉堡) are left out.
    "海洋 大洋 大海 海峡 海湾 河口 海滨 海滩 海港 滨海 入海 新港 湖泊 湖水 湖区 池塘 江湖 江河 大河 大江 大湖 "
    "河水 江水 泉水 河谷 冰川 三角洲 平原 高原 山区 山脉 山水 高山 大山 深山 山坡 山峰 山洞 山林 "
    "大桥 路桥 天桥 石桥 桥头堡 大街 中路 南路 北路 西路 东路 南门 北门 东门 西门 城南 城西 入口 "
    "城镇 古城 古都 都城 都市 京城 新城 内城 重镇 商城 城堡 王国 共和国 大国 "
    "深度 长度 中密度 回国 入市 渡江 上山 下山 登山 上台 上门 上马 长大 建国 开国 治国 爱国 英雄 太阳 美丽 新鲜 "
    "庆典 治安 普及 古典 福利 日志 青春 神圣 关联 中断 广义 契约 伦理 法典 嘉宾 贵宾 密封 广布 云集 天黑 千古 "
    "哥哥 阿哥 二哥 西瓜 牡丹 山寨 莫非 上半场 舞美 屯田"
).split())
# Endings that make a suffix-typed word an ordinary thing (集成电路芯片 is no -片 medicine).
KIND_ENDINGS = ("芯片", "图片", "照片", "卡片", "唱片", "影片", "名片", "大片", "短片", "切片", "刀片", "晶片", "碎片",
                "硅片", "基片", "叶片", "镜片", "胶片", "膜片", "薄片")  # 燃气轮机叶片: a turbine's blades, no -片 drug

# Nouns right before a quoted or titled name that say what it is: 工业视觉平台“天枢” is software.
PRODUCT_HEADS: tuple[tuple[str, str], ...] = (
    ("大语言模型", "Software|ArtificialObject"), ("大模型", "Software|ArtificialObject"),
    ("模型", "Software|ArtificialObject"), ("平台", "Software|ArtificialObject"), ("系统", "Software|ArtificialObject"),
    ("软件", "Software|ArtificialObject"), ("应用", "Software|ArtificialObject"), ("小程序",
    "Software|ArtificialObject"),
    ("操作系统", "Software|ArtificialObject"), ("App", "Software|ArtificialObject"), ("APP",
    "Software|ArtificialObject"),
    ("药物", "Medicine|Drug"), ("新药", "Medicine|Drug"), ("药品", "Medicine|Drug"), ("疫苗", "Medicine|Vaccine|Drug"),
    ("创新药", "Medicine|Drug"), ("仿制药", "Medicine|Drug"), ("抗体", "Medicine|Drug"),
    ("手机", "ArtificialObject"), ("手表", "ArtificialObject"), ("耳机", "ArtificialObject"),
    ("平板", "ArtificialObject"), ("电脑", "ArtificialObject"), ("电视", "ArtificialObject"),
    ("相机", "ArtificialObject"), ("客机", "Transport|ArtificialObject"),
    ("汽车", "ArtificialObject|Transport"), ("车型", "ArtificialObject|Transport"),
    ("轿车", "Transport|ArtificialObject"), ("越野车", "Transport|ArtificialObject"),
    ("客车", "Transport|ArtificialObject"), ("卡车", "Transport|ArtificialObject"), ("模块", "ArtificialObject"),
    ("芯片", "ArtificialObject"), ("处理器", "ArtificialObject"), ("产品", "ArtificialObject"),
    ("设备", "ArtificialObject"), ("机器人", "ArtificialObject"), ("电池", "ArtificialObject"),
    ("机床", "ArtificialObject"), ("电站", "ArtificialObject"), ("装备", "ArtificialObject"),
    ("仪器", "ArtificialObject"),
    ("发动机", "ArtificialObject"), ("机组", "ArtificialObject"),
    ("服务器", "ArtificialObject"), ("计算机", "ArtificialObject"), ("计算器", "ArtificialObject"),
    ("电子计算机", "ArtificialObject"), ("机器", "ArtificialObject"), ("密码机", "ArtificialObject"),
    ("卫星", "ArtificialObject"), ("飞机", "ArtificialObject|Transport"),
    # machines by their last character (无人机, 盾构机, 掘进机; 传感器, 控制器): the rest of the word says which
    ("机", "ArtificialObject"), ("器", "ArtificialObject"), ("火箭", "ArtificialObject"),
    ("船", "ArtificialObject|Transport"), ("邮轮", "Transport|ArtificialObject"),
    ("货轮", "Transport|ArtificialObject"),
    # “桂海明珠”轮: a ship named in quotes is written with 轮 after them
    ("轮", "Transport|ArtificialObject"),
    # “白河揽月”住宅项目: a housing estate or a tower named in quotes (a bare 项目 names programmes too:
    # “双一流”建设项目)
    ("住宅项目", "Building|ArtificialObject"), ("楼盘", "Building|ArtificialObject"),
    ("住宅小区", "Building|ArtificialObject"),
    ("大厦", "Building|ArtificialObject"), ("综合体", "Building|ArtificialObject"),
    ("大楼", "Building|ArtificialObject"),  # 新总部大楼“环越中心”
    ("舰", "Transport|ArtificialObject"),
    ("长篇小说", "Book|Work"), ("小说", "Book|Work"), ("著作", "Book|Work"), ("专著", "Book|Work"), ("诗集",
    "Book|Work"),
    ("散文集", "Book|Work"), ("书", "Book|Work"), ("电影", "Film|Work"), ("影片", "Film|Work"),
    ("电视剧", "TelevisionSeries|Work"), ("纪录片", "Film|Work"), ("歌曲", "MusicalWork|Work"),
    ("专辑", "MusicalWork|Work"), ("游戏", "Software|Work"), ("杂志", "Periodical|Work"), ("报纸", "Periodical|Work"),
    ("期刊", "Periodical|Work"), ("报告", "Work"), ("白皮书", "Work"), ("论文", "Work"),
)
# Endings of buildings' names, read on a quoted name's own words (更名为“楚味体育馆”).
BUILDING_ENDINGS = ("体育馆", "体育场", "体育中心", "大厦", "大楼", "酒店", "剧院", "大剧院", "大桥", "博览中心")
# Endings of buildings' and structures' names written without quotes (潇水大桥, 横店影视城, 鹰嘴岩水库): the words
# before them say which one.
STRUCTURE_ENDINGS = ("体育馆", "体育场", "体育中心", "大桥", "特大桥", "酒店", "影视城", "数据中心", "大剧院", "剧院",
                     "机场", "隧道", "水库")
# Award endings: 茅盾文学奖, 国家科学技术进步奖, 五一劳动奖章.
AWARD_SUFFIXES = ("奖章", "勋章", "奖", "荣誉称号")
# The words a named event ends with (第十届长白山国际电影节, 2025年全国田径锦标赛): the schema's Event (its
# Competition is an event type with roles, not a class of names).
EVENT_ENDINGS = ("锦标赛", "运动会", "大赛", "联赛", "马拉松", "电影节", "艺术节", "文化节", "音乐节", "博览会",
                 "展览会", "交易会", "特展", "论坛", "峰会")
AWARD_STOP = frozenset("奖 大奖 金奖 银奖 铜奖 一等奖 二等奖 三等奖 特等奖 奖项 嘉奖 奖励 获奖 得奖 颁奖 "
                       "年度奖".split())
# Lists whose head noun types their items: 旗下拥有远帆快运、远帆冷链等子公司.
LIST_HEADS: tuple[tuple[str, str], ...] = (
    ("子公司", "Company|Organization"), ("公司", "Company|Organization"), ("企业", "Company|Organization"),
    ("品牌", "Company|Organization"), ("银行", "Company|Organization"), ("高校", "EducationalInstitution|Organization"),
    ("大学", "EducationalInstitution|Organization"), ("城市", "City|GeographicLocation"),
    ("国家", "Country|GeographicLocation"), ("产品", "ArtificialObject"),
    # 上汽大众、上汽通用等合资企业; …等全资子公司
    ("合资企业", "Company|Organization"), ("合资公司", "Company|Organization"), ("全资子公司", "Company|Organization"),
    ("控股子公司", "Company|Organization"), ("成员企业", "Company|Organization"),
)

# Words never an entity on their own, whatever a rule or jieba's tag says: the common words of company
# reports and news that the first open-domain trial typed as people, places and medicines.
STOP_NAMES = frozenset((
    "智能化 数字化 信息化 网络化 自动化 国际化 现代化 市场化 产业化 规模化 标准化 一体化 多元化 全球化 台风 "
    "会同 同期 当期 同年 同月 "
    # (尚需提交公司股东大会审议: jieba's 需提交 is a noun; what a plan still needs, no name before 公司)
    "需提交 提交 提请 报请 "
    "荣获 获得 名片 上云 上市 创新 发展 转型 升级 服务 客户 用户 市场 产品 业务 技术 研发 管理 经营 战略 "
    "公司 集团 本公司 报告期 报告期内 年度 本年度 同比 环比 营业收入 净利润 营收 利润 收入 资产 负债 股东 董事会 "
    "华人 国人 人民 群众 大众 员工 职工 人员 团队 领导 专家 学者 "
    "图片 照片 卡片 唱片 影片 名片 大片 短片 芯片 切片 刀片 "
).split())
# Words that make a figure's name the count or sum of one act, not a figure a company (or a school, a site) has: money
# put in, raised, paid for a stake or given away once (出资8,000万元, 募集资金9.6亿港元, 以9,600万元受让其55%的股权,
# 捐赠善款2,000万元), a share price's move on a day (股价收涨17.5%), a first batch (首批200辆), what each winner will
# get (两人将各获得奖金), what a dig cleared (清理墓葬63座). A stated figure (营业收入, 授权专利, 在职员工) has none.
ONE_OFF_ACT_WORDS = ("出资", "募集", "募资", "融资", "受让", "转让", "捐赠", "捐款", "捐资", "股价", "收涨", "收跌",
                     "涨停", "跌停", "首批", "各获得", "将获得", "清理", "发掘",
                     # a report's one-off amounts: a dividend paid, a price agreed, a claim, a payment, a false figure
                     "派发", "报收", "作价", "虚增", "虚减", "支付", "赔偿", "违约金", "货款", "有权获得", "将",
                     # a buy-back, a holder's purchase or sale, a tender offer, a bond's principal and interest, funds
                     # taken by a related party, a trade's price: the amounts of one act, not figures of the company
                     "回购", "增持", "减持", "要约", "本金", "利息", "占用", "发生额", "成交价", "收盘价")
# Broad regions: continents, oceans and a country's compass regions. A text names them as markets and
# directions (机床出口中东和南美, 门店遍布华南地区, 北美订单减少), hardly ever as a party to a fact, so one that no
# fact of its chunk uses is no entity (the labelled sets list one of 23 such mentions as an entity).
BROAD_REGIONS = frozenset("欧洲 亚洲 非洲 美洲 北美 北美洲 南美 南美洲 拉美 拉丁美洲 大洋洲 南极洲 中东 "
                          "东南亚 南亚 中亚 西亚 东亚 东欧 西欧 北欧 南欧 太平洋 大西洋 印度洋 北冰洋 南极 北极 "
                          "华东地区 华南地区 华北地区 华中地区 西南地区 西北地区 东北地区 长三角地区 珠三角地区 "
                          "京津冀地区 海外 境外 华东 华南 华北 华中".split())

# A company's department: its function words and 部 (财务部, 固定收益投资部, 人力资源部, 项目部); a ministry's name is
# none of these (财政部, 商务部, 农业农村部, 科学技术部)
_DEPARTMENT = re.compile(r"(?:固定收益|权益|收益|计划|战略|综合|国际|海外|信息|资产|风险|法律|证券|董事会|市场)?"
                         r"(?:投资|财务|项目|市场|销售|营销|人力资源|人事|审计|内审|法务|事务|研发|技术|工程|采购|生产|"
                         r"质量|质检|安全|安环|行政|管理|发展|企划|风控|合规|运营|客服|业务|资金|党群工作|纪检监察|品牌|"
                         r"设计|物流|供应链|规划|稽核)+部")


_OWN_DEPARTMENT = re.compile(r"(?:本公司|公司|本集团|集团|本行)?" + _DEPARTMENT.pattern)


def is_department(name: str) -> bool:
    """财务部, 公司固定收益投资部: a department of a company (the company's words before it dropped), no body."""
    return _OWN_DEPARTMENT.fullmatch(name) is not None
