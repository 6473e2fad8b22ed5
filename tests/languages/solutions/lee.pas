{ lee in Free Pascal, in the classroom style of the seeds: Turbo Pascal's Crt unit, a maze framed
  by walls, the wave (Lee's BFS) in two queue arrays, the path walked back from the cheese.
  dist = 1 + moves from the mouse, 0 = not reached. }
program MouseAndCheese;
uses Crt;

const
  Size = 102;
  DRow: array[1..4] of integer = (-1, 1, 0, 0);
  DCol: array[1..4] of integer = (0, 0, -1, 1);

var
  wall, dist: array[0..Size, 0..Size] of integer;
  queueRow, queueCol, pathRow, pathCol: array[1..Size * Size] of integer;
  n, m, i, j, k, r, c, nr, nc, head, tail, len: integer;
  mouseRow, mouseCol, cheeseRow, cheeseCol: integer;
  found: boolean;

begin
  ClrScr;
  Read(n, m);
  for i := 0 to n + 1 do
    for j := 0 to m + 1 do
    begin
      wall[i, j] := 1;
      dist[i, j] := 0;
    end;
  for i := 1 to n do
    for j := 1 to m do
      Read(wall[i, j]);
  Read(mouseRow, mouseCol, cheeseRow, cheeseCol);

  head := 1; tail := 1;
  queueRow[1] := mouseRow; queueCol[1] := mouseCol;
  dist[mouseRow, mouseCol] := 1;
  while head <= tail do
  begin
    r := queueRow[head]; c := queueCol[head];
    head += 1;  { C-style operator: fpc -Sc }
    for k := 1 to 4 do
    begin
      nr := r + DRow[k]; nc := c + DCol[k];
      if (wall[nr, nc] = 0) and (dist[nr, nc] = 0) then
      begin
        dist[nr, nc] := dist[r, c] + 1;
        Inc(tail);
        queueRow[tail] := nr; queueCol[tail] := nc;
      end;
    end;
  end;

  if dist[cheeseRow, cheeseCol] = 0 then
  begin
    WriteLn(-1);
    Halt;
  end;
  len := 1; r := cheeseRow; c := cheeseCol;
  pathRow[1] := r; pathCol[1] := c;
  while dist[r, c] > 1 do
  begin
    found := false;
    for k := 1 to 4 do
      if not found then
      begin
        nr := r + DRow[k]; nc := c + DCol[k];
        if (wall[nr, nc] = 0) and (dist[nr, nc] = dist[r, c] - 1) then
        begin
          r := nr; c := nc; found := true;
        end;
      end;
    Inc(len);
    pathRow[len] := r; pathCol[len] := c;
  end;
  WriteLn(len - 1);
  for i := len downto 1 do
    WriteLn(pathRow[i], ' ', pathCol[i]);
end.
