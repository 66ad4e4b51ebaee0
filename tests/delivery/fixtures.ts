// Answers the delivery tests (standalone and real host) and the benchmark give the fake model.

const SECTION = (n: number): string => `## 第 ${n} 部分：要点

这一部分讲的是**重点 ${n}**，其中有*强调*、~~删除线~~和 \`inline_code_${n}\`，还有一个[链接 ${n}](https://example.com/doc/${n})。
为了让回答足够长，这里再补充几句说明文字：模型的回答在群里要读起来自然，不能满是符号。

- 第一点：列表项会变成圆点
- 第二点：**加粗的列表项**
  - 嵌套的第 ${n} 项
1. 编号保留
2. 第二个编号

> 引用的一句话，来自第 ${n} 部分。

| 名称 | 数值 |
|------|-----:|
| 甲 ${n} | ${n * 10} |
| 乙 ${n} | ${n * 20} |

\`\`\`python
def f_${n}(x):
    return x * ${n}  # 代码保持原样
\`\`\`

---
`

/** A markdown answer of about 3,000 characters after a <think> block. */
export function longMarkdownAnswer (): string {
  let body = '<think>这是模型的思考过程，不能出现在聊天里。SECRET-REASONING</think>\n# 总标题\n\n'
  for (let n = 1; body.length < 3000; n++) body += SECTION(n)
  return body
}

/** Markdown syntax that must not reach a chat as plain text (line starts and inline forms). */
export const MARKDOWN_SYNTAX: Array<[string, RegExp]> = [
  ['heading', /^\s*#{1,6}\s/m],
  ['bold', /\*\*|__/],
  ['strike', /~~/],
  ['code fence', /```/],
  ['inline code', /`/],
  ['link', /\]\(/],
  ['bullet', /^\s*[-*+]\s/m],
  ['quote', /^\s*>/m],
  ['table rule', /\|\s*:?-{3,}/],
  ['horizontal rule', /^\s*---\s*$/m],
  ['reasoning', /<\/?think>|SECRET-REASONING/]
]
