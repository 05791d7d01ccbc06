/**
 * A file open for writing (src/editor/FileDesk.tsx). The desk and CodeMirror load only when
 * a file is opened, both at once, so the first screens stay light.
 */
import { lazy, Suspense } from 'react';
import { useI18n } from '../i18n';

const FileDesk = lazy(() => {
  // Fetched side by side with the desk instead of after it.
  void import('../editor/ProseEditor');
  return import('../editor/FileDesk');
});

export function FilePage({ fileId }: { fileId: string }) {
  const { t } = useI18n();
  return (
    <Suspense fallback={<p>{t.loading}</p>}>
      <FileDesk fileId={fileId} />
    </Suspense>
  );
}
