{ Lines, accepted: the wave algorithm in Free Pascal (fpc -O2).
  Like the seed's program it reads input.txt and writes output.txt. The board gets a
  frame of balls so that the search never checks the board's edges. }
program LinesWave;

const
  MaxN = 40;
  DR: array[0..3] of integer = (0, 1, 0, -1);
  DC: array[0..3] of integer = (1, 0, -1, 0);

var
  board: array[0..MaxN + 1, 0..MaxN + 1] of char;
  cameFrom: array[0..MaxN + 1, 0..MaxN + 1] of integer; { direction index, -1 unreached }
  queueRow, queueCol: array[1..MaxN * MaxN] of integer;
  n, r, c, k, head, tail, startRow, startCol, targetRow, targetCol, nr, nc: integer;
  line: string;
  inFile, outFile: text;
  found: boolean;

begin
  Assign(inFile, 'input.txt');
  Reset(inFile);
  ReadLn(inFile, n);
  for r := 0 to n + 1 do
    for c := 0 to n + 1 do
    begin
      board[r, c] := 'O';
      cameFrom[r, c] := -1;
    end;
  for r := 1 to n do
  begin
    ReadLn(inFile, line);
    for c := 1 to n do
    begin
      board[r, c] := line[c];
      if line[c] = '@' then begin startRow := r; startCol := c; end;
      if line[c] = 'X' then begin targetRow := r; targetCol := c; end;
    end;
  end;
  Close(inFile);

  head := 1;
  tail := 1;
  queueRow[1] := startRow;
  queueCol[1] := startCol;
  cameFrom[startRow, startCol] := 4; { marks the start as reached }
  found := false;
  while (head <= tail) and not found do
  begin
    r := queueRow[head];
    c := queueCol[head];
    Inc(head);
    for k := 0 to 3 do
    begin
      nr := r + DR[k];
      nc := c + DC[k];
      if (cameFrom[nr, nc] = -1) and ((board[nr, nc] = '.') or (board[nr, nc] = 'X')) then
      begin
        cameFrom[nr, nc] := k;
        Inc(tail);
        queueRow[tail] := nr;
        queueCol[tail] := nc;
        if (nr = targetRow) and (nc = targetCol) then found := true;
      end;
    end;
  end;

  Assign(outFile, 'output.txt');
  Rewrite(outFile);
  if found then
  begin
    WriteLn(outFile, 'Y');
    r := targetRow;
    c := targetCol;
    while (r <> startRow) or (c <> startCol) do
    begin
      board[r, c] := '+';
      k := cameFrom[r, c];
      r := r - DR[k];
      c := c - DC[k];
    end;
    for r := 1 to n do
    begin
      for c := 1 to n do Write(outFile, board[r, c]);
      WriteLn(outFile);
    end;
  end
  else
    WriteLn(outFile, 'N');
  Close(outFile);
end.
