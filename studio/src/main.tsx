import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';
import './styles/shell.css';
import './styles/editor.css';
import './styles/board.css';
import './styles/record.css';
import './styles/jobs.css';

createRoot(document.getElementById('root')!).render(<App />);
