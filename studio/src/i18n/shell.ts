/** Strings of Studio's shell screens, in both languages (see ./index.ts). */
import { part } from './part';

export const shell = part(
  {
    appShort: 'Scriptorium',
    theme: 'Theme',
    theme_system: 'System',
    theme_light: 'Light',
    theme_dark: 'Dark',
    panels: 'Panels',
    closePanel: 'Close the panel',
    nothingToExport: 'Nothing to export yet: no chapter has text.',
    exportFailed: 'The export did not work. Try again in a moment.',
  },
  {
    appShort: 'Scriptorium',
    theme: '外观',
    theme_system: '跟随系统',
    theme_light: '浅色',
    theme_dark: '深色',
    panels: '面板',
    closePanel: '关闭面板',
    nothingToExport: '还没有可导出的内容：没有写好正文的章节。',
    exportFailed: '导出没有成功，请稍后再试。',
  },
);
