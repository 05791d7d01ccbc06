import { authorAskedFor } from '../src/shared/author-scope';
const titles = ['Chapter 1', 'Chapter 2', 'Chapter 3: The Lighthouse', 'Chapter 4', 'Chapter 5', 'Chapter 10', 'Chapter 11', 'Prologue', 'Outline', 'Outline Draft', 'Characters', 'Anna', 'Anna Marsh', 'Notes', 'Notes 2', 'Worldbuilding', '第1章 雨夜', '第2章 旧港', '第3章 灯塔', '第4章 潮汐', '第5章 归途', '第10章 风暴', '第11章 余波', '序章', '大纲', '大纲草稿', '人物设定', '林夏', '林夏雪', '世界观', '笔记', '笔记2'];
const [m, a] = process.argv.slice(2);
for (const action of a ? [a] : ['delete', 'rewrite'])
  console.log(action, titles.filter((t) => authorAskedFor({ message: m!, titles }, { id: t, title: t }, action as 'delete')));
